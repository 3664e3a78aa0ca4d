package com.creditplatform.sdk;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one call sends besides its path parameters, built fluently:
 *  {@code Request.create().query("limit", 50).body(Map.of("name", "Maria")).requestId("…").timeout(Duration.ofSeconds(5))}. */
public final class Request {
  final Map<String, Object> query = new LinkedHashMap<>();
  final Map<String, String> headers = new LinkedHashMap<>();
  Object body;
  String requestId;
  Duration timeout;

  private Request() {}

  public static Request create() {
    return new Request();
  }

  /** The JSON body: a Map, a List, a Jackson node or any object Jackson can write. */
  public static Request body(Object body) {
    return create().withBody(body);
  }

  public Request withBody(Object body) {
    this.body = body;
    return this;
  }

  public Request query(String name, Object value) {
    if (value != null) query.put(name, value);
    return this;
  }

  /** The X-Request-Id of a POST, its idempotency key (default: a random UUID), the same on every retry of this call.
   *  Every exception of the call carries it ({@code e.requestId()}): on an unknown outcome, send the call again with it. */
  public Request requestId(String requestId) {
    this.requestId = requestId;
    return this;
  }

  /** An extra request header for this call, e.g. {@code header("X-Provider-Signature", "…")} for
   *  {@code receiveProviderNotification}. The headers the SDK sets itself (Accept, Authorization, Content-Type,
   *  User-Agent, X-Request-Id — give {@link #requestId} — X-Tenant-Id, and those java.net.http refuses: Connection,
   *  Content-Length, Expect, Host, Upgrade) cannot be given: the call throws a {@link CreditPlatformException}. */
  public Request header(String name, String value) {
    if (value != null) headers.put(name, value);
    return this;
  }

  /** This call's timeout per attempt, the answer's body included (default: the client's). */
  public Request timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  Request copyWithQuery(String name, Object value) {
    Request copy = new Request();
    copy.query.putAll(query);
    copy.query(name, value);
    copy.headers.putAll(headers);
    copy.body = body;
    copy.requestId = requestId;
    copy.timeout = timeout;
    return copy;
  }
}
