package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Verifying what the platform POSTs to your endpoint (Standard Webhooks): HMAC-SHA256 over
 *  {@code {webhook-id}.{webhook-timestamp}.{raw body}} with your endpoint's {@code whsec_…} secret, and a timestamp within
 *  5 minutes of your clock. During a secret rotation pass both secrets: either one verifies. */
public final class Webhooks {
  private static final ObjectMapper JSON = new ObjectMapper();
  public static final long TOLERANCE_SECONDS = 300;

  private Webhooks() {}

  public static final class VerificationException extends CreditPlatformException {
    public VerificationException(String message) {
      super(message);
    }

    public VerificationException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The verified event {id, type, created_at, tenant_id, environment, data}. {@code body} is the raw request body.
   *  Every failure — a missing or hostile header, a malformed secret, a body that is not JSON — throws
   *  {@link VerificationException} (and nothing else). */
  public static JsonNode verify(String body, Map<String, String> headers, String... secrets) {
    return verify(body, headers, Instant.now(), secrets);
  }

  public static JsonNode verify(String body, Map<String, String> headers, Instant now, String... secrets) {
    try {
      return verifyOrThrow(body, headers, now, secrets);
    } catch (VerificationException e) {
      throw e;
    } catch (RuntimeException e) { // hostile input must not escape as IllegalArgumentException, NullPointerException…
      throw new VerificationException("Cannot verify the payload: " + e.getClass().getSimpleName(), e);
    }
  }

  private static JsonNode verifyOrThrow(String body, Map<String, String> headers, Instant now, String... secrets) {
    Map<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.putAll(headers);
    String id = h.get("webhook-id");
    String timestamp = h.get("webhook-timestamp");
    String signatures = h.get("webhook-signature");
    if (id == null || timestamp == null || signatures == null) throw new VerificationException("Missing webhook-id, webhook-timestamp or webhook-signature");
    long sentAt;
    try {
      sentAt = Long.parseLong(timestamp.trim());
    } catch (NumberFormatException e) {
      throw new VerificationException("Invalid webhook-timestamp");
    }
    if (Math.abs(now.getEpochSecond() - sentAt) > TOLERANCE_SECONDS) throw new VerificationException("The timestamp is too far from now");
    byte[] signed = (id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8);
    for (String secret : secrets) {
      String key = secret.startsWith("whsec_") ? secret.substring(6) : secret;
      byte[] expected;
      try {
        expected = hmac(Base64.getDecoder().decode(key), signed);
      } catch (IllegalArgumentException e) {
        throw new VerificationException("A secret is not a whsec_… base64 key", e);
      }
      for (String offered : signatures.split(" ")) {
        if (!offered.toLowerCase(Locale.ROOT).startsWith("v1,")) continue;
        byte[] candidate;
        try {
          candidate = Base64.getDecoder().decode(offered.substring(3));
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (MessageDigest.isEqual(expected, candidate)) {
          try {
            return JSON.readTree(body);
          } catch (Exception e) {
            throw new VerificationException("The body is not JSON");
          }
        }
      }
    }
    throw new VerificationException("No matching signature found");
  }

  private static byte[] hmac(byte[] key, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message);
    } catch (IllegalArgumentException e) {
      throw e; // an empty key
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
