package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The API answered with an error status: the RFC 9457 problem's fields, the whole problem and the answer's headers. */
public final class ApiException extends CreditPlatformException {
  public record FieldError(String param, String in, String message) {}

  private final JsonNode problem;
  private final HttpHeaders headers;
  private final int status;
  private final String code;
  private final String type;
  private final String detail;
  private final Double retryAfterSeconds;
  private final boolean retryable;
  private final List<FieldError> errors = new ArrayList<>();

  /** {@code sentRequestId}: the X-Request-Id sent with the call (default: the one in the problem or the answer's headers). */
  ApiException(int status, JsonNode problem, HttpHeaders headers, String sentRequestId) {
    // The id sent first: it is the one to send the call again with (an intermediary may answer with its own).
    this(status, problem, headers, sentRequestId != null ? sentRequestId : text(problem, "request_id", headers.firstValue("x-request-id").orElse(null)), null);
  }

  private ApiException(int status, JsonNode problem, HttpHeaders headers, String requestId, Throwable cause) {
    super(status + " " + text(problem, "code", "http_" + status) + ": " + text(problem, "detail", text(problem, "title", "")), cause, requestId);
    this.problem = problem;
    this.headers = headers;
    this.status = status;
    this.code = text(problem, "code", "http_" + status);
    this.type = text(problem, "type", "about:blank");
    this.detail = text(problem, "detail", null);
    this.retryAfterSeconds = parseRetryAfter(headers.firstValue("retry-after"));
    this.retryable = problem.path("retryable").isBoolean() && problem.path("retryable").booleanValue();
    if (problem.has("errors")) {
      for (JsonNode e : problem.get("errors")) errors.add(new FieldError(text(e, "param", ""), text(e, "in", ""), text(e, "message", "")));
    }
  }

  /** This answer as an exception of another call (e.g. the one whose token request it answered): the call's own
   *  X-Request-Id ({@code null}: none), this one as its cause. */
  ApiException forCall(String callRequestId) {
    return new ApiException(status, problem, headers, callRequestId, this);
  }

  /** Retry-After (RFC 9110): a number of seconds, or an HTTP date (seconds from now, at least 0). */
  static Double parseRetryAfter(Optional<String> header) {
    if (header.isEmpty() || header.get().isBlank()) return null;
    String value = header.get().trim();
    try {
      double seconds = Double.parseDouble(value);
      return Double.isFinite(seconds) ? Math.max(0, seconds) : null;
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        return (double) Math.max(0, (long) Math.ceil((at.toEpochMilli() - System.currentTimeMillis()) / 1000.0));
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }

  private static String text(JsonNode node, String field, String fallback) {
    return node != null && node.hasNonNull(field) ? node.get(field).asText() : fallback;
  }

  public int status() { return status; }
  public String code() { return code; }
  public String type() { return type; }
  public String detail() { return detail; }
  public Double retryAfterSeconds() { return retryAfterSeconds; }
  /** The problem's {@code retryable: true}: the same request, sent again with the same X-Request-Id, may succeed — e.g. a
   *  409 {@code conflict} from a race lost before anything changed (retried by the client after its Retry-After). False
   *  when the problem does not say so (a 409 {@code conflict} without it stays). */
  public boolean retryable() { return retryable; }
  public List<FieldError> errors() { return errors; }
  public JsonNode problem() { return problem; }
  /** The answer's headers (e.g. {@code headers().firstValue("retry-after")}). */
  public HttpHeaders headers() { return headers; }
}
