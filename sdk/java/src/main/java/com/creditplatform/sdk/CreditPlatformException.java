package com.creditplatform.sdk;

/** Every error of the SDK. */
public class CreditPlatformException extends RuntimeException {
  public CreditPlatformException(String message) {
    super(message);
  }

  public CreditPlatformException(String message, Throwable cause) {
    super(message, cause);
  }

  /** No answer: the connection failed or was cut. */
  public static final class ConnectionException extends CreditPlatformException {
    public ConnectionException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** No answer within the request's timeout. */
  public static final class TimeoutException extends CreditPlatformException {
    public TimeoutException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
