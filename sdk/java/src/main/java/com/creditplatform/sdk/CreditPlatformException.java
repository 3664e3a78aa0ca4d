package com.creditplatform.sdk;

/** Every error of the SDK. {@link #requestId()}: the call's X-Request-Id — the one the SDK sent (every POST: yours or the
 *  UUID it generated, the same on each retry), else the one the API answered with. On an unknown outcome (a timeout or a
 *  connection failure once the retries are spent, a 409 {@code idempotency_in_progress}), send the call again with it:
 *  {@code Request.requestId(e.requestId())}. So too after an {@link ApiException} whose {@code retryable()} is true (a 409
 *  {@code conflict} from a race lost before anything changed, once the retries are spent): the request is judged again. */
public class CreditPlatformException extends RuntimeException {
  private final String requestId;

  public CreditPlatformException(String message) {
    this(message, null, null);
  }

  public CreditPlatformException(String message, Throwable cause) {
    this(message, cause, null);
  }

  public CreditPlatformException(String message, Throwable cause, String requestId) {
    super(message, cause);
    this.requestId = requestId;
  }

  /** The call's X-Request-Id (the one sent with a POST, else the one the API answered with), or null. */
  public String requestId() {
    return requestId;
  }

  /** No answer, or not all of it: the connection failed or was cut (before or while the answer's body arrived), or a
   *  success's body is not JSON (cut short on the way). The outcome is unknown: send the call again with its requestId. */
  public static final class ConnectionException extends CreditPlatformException {
    public ConnectionException(String message, Throwable cause) {
      super(message, cause);
    }

    public ConnectionException(String message, Throwable cause, String requestId) {
      super(message, cause, requestId);
    }
  }

  /** No answer, or not all of it, within the request's timeout (a deadline over the whole exchange, body included). */
  public static final class TimeoutException extends CreditPlatformException {
    public TimeoutException(String message, Throwable cause) {
      super(message, cause);
    }

    public TimeoutException(String message, Throwable cause, String requestId) {
      super(message, cause, requestId);
    }
  }
}
