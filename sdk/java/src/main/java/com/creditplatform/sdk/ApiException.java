package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The API answered with an error status: the RFC 9457 problem's fields, and the whole problem. */
public final class ApiException extends CreditPlatformException {
  public record FieldError(String param, String in, String message) {}

  private final JsonNode problem;
  private final int status;
  private final String code;
  private final String type;
  private final String detail;
  private final String requestId;
  private final Double retryAfterSeconds;
  private final List<FieldError> errors = new ArrayList<>();

  ApiException(int status, JsonNode problem, Optional<String> retryAfter, Optional<String> requestIdHeader) {
    super(status + " " + text(problem, "code", "http_" + status) + ": " + text(problem, "detail", text(problem, "title", "")));
    this.problem = problem;
    this.status = status;
    this.code = text(problem, "code", "http_" + status);
    this.type = text(problem, "type", "about:blank");
    this.detail = text(problem, "detail", null);
    this.requestId = text(problem, "request_id", requestIdHeader.orElse(null));
    Double seconds = null;
    try {
      seconds = retryAfter.map(Double::parseDouble).orElse(null);
    } catch (NumberFormatException ignored) {
      // an HTTP date: not used by this API
    }
    this.retryAfterSeconds = seconds;
    if (problem.has("errors")) {
      for (JsonNode e : problem.get("errors")) errors.add(new FieldError(text(e, "param", ""), text(e, "in", ""), text(e, "message", "")));
    }
  }

  private static String text(JsonNode node, String field, String fallback) {
    return node != null && node.hasNonNull(field) ? node.get(field).asText() : fallback;
  }

  public int status() { return status; }
  public String code() { return code; }
  public String type() { return type; }
  public String detail() { return detail; }
  public String requestId() { return requestId; }
  public Double retryAfterSeconds() { return retryAfterSeconds; }
  public List<FieldError> errors() { return errors; }
  public JsonNode problem() { return problem; }
}
