package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.net.ssl.SSLHandshakeException;

/**
 * A client of the Credit Platform API: one request path (credentials, tenant, request ids, retries, timeouts, errors)
 * under one method per operation (generated in {@link GeneratedOperations} from the OpenAPI document).
 *
 * <pre>{@code
 * CreditPlatform api = CreditPlatform.builder().baseUrl("http://localhost:3000").tenantId("ten_…").apiKey("sk_test_…").build();
 * JsonNode customer = api.createCustomer(Request.body(Map.of("document", "52998224725", "name", "Maria")));
 * }</pre>
 */
public final class CreditPlatform extends GeneratedOperations {
  public static final String VERSION = "1.4.0";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The headers the SDK sets itself (and those java.net.http refuses: Connection, Content-Length, Expect, Host, Upgrade):
   *  not to be given with {@link Request#header}. */
  private static final java.util.Set<String> SDK_HEADERS = java.util.Set.of("accept", "authorization", "connection", "content-length", "content-type", "expect", "host", "upgrade", "user-agent", "x-request-id", "x-tenant-id");

  private final String baseUrl;
  private final String tenantId;
  private final String apiKey;
  private final String clientId;
  private final String clientSecret;
  private final String scope;
  private final Duration timeout;
  private final int maxRetries;
  private final Duration retryBaseDelay;
  private final Duration maxRetryAfter;
  private final HttpClient http;
  private final String userAgent = "credit-platform-java/" + VERSION + " java/" + System.getProperty("java.version");
  private String token;
  private long tokenRenewAt;

  private CreditPlatform(Builder b) {
    if (b.tenantId == null || b.tenantId.isBlank()) throw new CreditPlatformException("tenantId is required");
    if (b.apiKey == null && (b.clientId == null || b.clientSecret == null)) throw new CreditPlatformException("Give apiKey, or clientId and clientSecret");
    if (b.environment != null && !b.environment.equals("sandbox") && !b.environment.equals("production")) {
      throw new IllegalArgumentException("environment is \"sandbox\" or \"production\", not \"" + b.environment + "\"");
    }
    String base = b.baseUrl;
    if (base == null && b.environment != null) {
      base = b.baseUrls.getOrDefault(b.environment, System.getenv("CREDIT_PLATFORM_" + b.environment.toUpperCase() + "_URL"));
    }
    if (base == null) throw new CreditPlatformException("Give baseUrl, or environment with baseUrls (or CREDIT_PLATFORM_<ENVIRONMENT>_URL)");
    if (b.apiKey != null && b.environment != null) {
      String prefix = b.environment.equals("production") ? "sk_live_" : "sk_test_";
      if (!b.apiKey.startsWith(prefix)) throw new CreditPlatformException("A " + b.environment + " key starts with " + prefix);
    }
    this.baseUrl = base.replaceAll("/+$", "");
    this.tenantId = b.tenantId;
    this.apiKey = b.apiKey;
    this.clientId = b.clientId;
    this.clientSecret = b.clientSecret;
    this.scope = b.scope;
    this.timeout = b.timeout;
    this.maxRetries = b.maxRetries;
    this.retryBaseDelay = b.retryBaseDelay;
    this.maxRetryAfter = b.maxRetryAfter;
    this.http = HttpClient.newBuilder().connectTimeout(b.timeout).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a client: {@code baseUrl} (or {@code environment} + {@code baseUrl(env, url)}), {@code tenantId}, and an API key or OAuth2 client credentials. */
  public static final class Builder {
    private String baseUrl;
    private String environment;
    private final Map<String, String> baseUrls = new LinkedHashMap<>();
    private String tenantId;
    private String apiKey;
    private String clientId;
    private String clientSecret;
    private String scope;
    private Duration timeout = Duration.ofSeconds(30);
    private int maxRetries = 3;
    private Duration retryBaseDelay = Duration.ofMillis(500);
    private Duration maxRetryAfter = Duration.ofSeconds(60);

    public Builder baseUrl(String baseUrl) { this.baseUrl = baseUrl; return this; }
    /** "sandbox" or "production" (anything else: {@code build()} throws IllegalArgumentException): picks the base URL
     *  given with {@link #baseUrl(String, String)} or CREDIT_PLATFORM_&lt;ENV&gt;_URL. */
    public Builder environment(String environment) { this.environment = environment; return this; }
    public Builder baseUrl(String environment, String baseUrl) { this.baseUrls.put(environment, baseUrl); return this; }
    public Builder tenantId(String tenantId) { this.tenantId = tenantId; return this; }
    public Builder apiKey(String apiKey) { this.apiKey = apiKey; return this; }
    /** OAuth2 client credentials: the token is fetched, cached and renewed a minute before it expires. */
    public Builder clientCredentials(String clientId, String clientSecret) { this.clientId = clientId; this.clientSecret = clientSecret; return this; }
    public Builder scope(String scope) { this.scope = scope; return this; }
    /** Per-attempt timeout (default 30 s): a deadline over the whole exchange, the answer's body included. */
    public Builder timeout(Duration timeout) { this.timeout = timeout; return this; }
    /** Retries of 429, 409 {@code idempotency_in_progress}, 409 with {@code retryable: true} (a race lost before anything
     *  changed), and of 503 and network failures of safe requests (default 3). */
    public Builder maxRetries(int maxRetries) { this.maxRetries = maxRetries; return this; }
    /** First backoff delay (default 500 ms; doubles each retry, with jitter, at most 20 s). */
    public Builder retryBaseDelay(Duration delay) { this.retryBaseDelay = delay; return this; }
    /** The longest Retry-After waited for before a retry (default 60 s): an answer asking for a longer wait is thrown at
     *  once, as an {@link ApiException} whose {@code retryAfterSeconds()} says how long. */
    public Builder maxRetryAfter(Duration maxRetryAfter) { this.maxRetryAfter = maxRetryAfter; return this; }
    public CreditPlatform build() { return new CreditPlatform(this); }
  }

  /** Every item of a paginated list operation (e.g. "listCustomers"), page after page. */
  public Iterable<JsonNode> paginate(String operationId, Request request) {
    return paginate(operationId, Map.of(), request);
  }

  /** Every item of a paginated list operation with path parameters (e.g. "listContractInstallments", {"id": …}). */
  public Iterable<JsonNode> paginate(String operationId, Map<String, String> pathParams, Request request) {
    Operations.Operation op = Operations.ALL.get(operationId);
    if (op == null || !op.paginated()) throw new CreditPlatformException(operationId + " is not a paginated list operation");
    return () -> new Iterator<>() {
      private Iterator<JsonNode> page = null;
      private String cursor = null;
      private boolean last = false;

      @Override
      public boolean hasNext() {
        while ((page == null || !page.hasNext()) && !last) {
          JsonNode answer = call(operationId, pathParams, cursor == null ? request : request.copyWithQuery("cursor", cursor));
          page = answer.get("data").elements();
          cursor = answer.path("next_cursor").isNull() ? null : answer.path("next_cursor").asText(null);
          last = !answer.path("has_more").asBoolean(false) || cursor == null;
        }
        return page != null && page.hasNext();
      }

      @Override
      public JsonNode next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.next();
      }
    };
  }

  @Override
  protected JsonNode call(String operationId, Map<String, String> pathParams, Request request) {
    Operations.Operation op = Operations.ALL.get(operationId);
    if (op == null) throw new CreditPlatformException("Unknown operation " + operationId);
    String path = op.path();
    for (String name : op.pathParams()) {
      String value = pathParams.get(name);
      if (value == null || value.isEmpty()) throw new CreditPlatformException(operationId + ": path parameter " + name + " is required");
      path = path.replace("{" + name + "}", URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    String query = request.query.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(String.valueOf(e.getValue()), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    URI uri = URI.create(baseUrl + path + (query.isEmpty() ? "" : "?" + query));
    Map<String, String> headers = new LinkedHashMap<>();
    for (Map.Entry<String, String> extra : request.headers.entrySet()) {
      if (SDK_HEADERS.contains(extra.getKey().toLowerCase(java.util.Locale.ROOT))) throw new CreditPlatformException(operationId + ": the " + extra.getKey() + " header is set by the SDK");
      headers.put(extra.getKey().toLowerCase(java.util.Locale.ROOT), extra.getValue());
    }
    headers.put("accept", "application/json");
    String body = null;
    if (op.body() != null) {
      try {
        if (op.body().equals("application/x-www-form-urlencoded")) {
          headers.put("content-type", "application/x-www-form-urlencoded");
          @SuppressWarnings("unchecked")
          Map<String, Object> form = request.body == null ? Map.of() : (Map<String, Object>) request.body;
          body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(String.valueOf(e.getValue()), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        } else {
          headers.put("content-type", "application/json");
          body = request.body == null ? "{}" : JSON.writeValueAsString(request.body);
        }
      } catch (IOException e) {
        throw new CreditPlatformException("The body cannot be written as JSON", e);
      }
    }
    if (op.method().equals("POST")) headers.put("x-request-id", request.requestId != null ? request.requestId : UUID.randomUUID().toString());
    boolean safe = op.retrySafe(); // GET, PUT, DELETE, and POSTs the server replays by their X-Request-Id (never /v1/auth/token)
    ObjectNode deleted = op.method().equals("DELETE") ? deletedAnswer(op.path(), pathParams) : null;
    return send(op.method(), uri, headers, body, op.auth(), safe, request.timeout != null ? request.timeout : timeout, deleted);
  }

  /** {@code deleted}: a DELETE's documented answer, what the call returns when a retry of it finds nothing (see below). */
  private JsonNode send(String method, URI uri, Map<String, String> headers, String body, boolean auth, boolean safe, Duration attemptTimeout, ObjectNode deleted) {
    String requestId = headers.get("x-request-id"); // on every error of the call: the id to send it again with
    String where = method + " " + uri.getPath();
    boolean renewed = false;
    // The last attempt whose outcome is unknown (it may have reached the server and been applied, but no whole answer came
    // back). An attempt that never reached the server — refused, a name that did not resolve, no route, the connect
    // timeout, a TLS handshake refused — is no such attempt: nothing was applied.
    CreditPlatformException unknown = null;
    for (int attempt = 0; ; attempt++) {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(attemptTimeout).header("user-agent", userAgent);
      headers.forEach(b::header);
      String used = null;
      if (auth) {
        try {
          used = credential();
        } catch (CreditPlatformException e) {
          throw credentialFailure(where, e, requestId, unknown);
        }
        b.header("authorization", "Bearer " + used).header("x-tenant-id", tenantId);
      }
      b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
      // One attempt is the whole exchange, body and its JSON included, within attemptTimeout: HttpRequest.timeout stops
      // applying once the headers arrive (JDK-8258397), so a stalled body would hang forever without this deadline.
      CompletableFuture<HttpResponse<String>> pending = http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> response;
      CreditPlatformException failure;
      boolean neverSent = false;
      try {
        response = pending.get(attemptTimeout.toNanos(), TimeUnit.NANOSECONDS);
        failure = null;
      } catch (java.util.concurrent.TimeoutException e) {
        pending.cancel(true); // aborts the exchange
        response = null;
        failure = new CreditPlatformException.TimeoutException(where + ": no answer (or not all of it) within " + attemptTimeout.toMillis() + " ms", e, requestId);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        response = null;
        neverSent = neverSent(cause);
        if (cause instanceof HttpTimeoutException) {
          String waited = neverSent ? "no connection (the request was not sent)" : "no answer";
          failure = new CreditPlatformException.TimeoutException(where + ": " + waited + " within " + attemptTimeout.toMillis() + " ms", cause, requestId);
        } else if (neverSent) {
          failure = new CreditPlatformException.ConnectionException(where + ": no connection, the request was not sent: " + describe(cause), cause, requestId);
        } else if (cause instanceof IOException) {
          failure = new CreditPlatformException.ConnectionException(where + ": " + cause, cause, requestId);
        } else {
          throw new CreditPlatformException(where + ": " + cause, cause, requestId);
        }
      } catch (InterruptedException e) {
        pending.cancel(true);
        Thread.currentThread().interrupt();
        throw new CreditPlatformException("Interrupted", e, requestId);
      }
      int status = response == null ? 0 : response.statusCode();
      if (failure == null && status >= 200 && status < 300) {
        try {
          return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
          // A success whose body is not JSON: cut short on the way (a close-delimited answer), or not the API answering.
          failure = new CreditPlatformException.ConnectionException(where + ": the " + status + " answer's body is not JSON (" + e.getMessage() + ")", e, requestId);
        }
      }
      if (failure != null) {
        if (!neverSent) unknown = failure;
        if (safe && attempt < maxRetries) {
          sleep(backoff(attempt), requestId);
          continue;
        }
        throw failure;
      }
      // A DELETE sent again after an attempt that may have reached the server (its outcome unknown) finds nothing when
      // that attempt did delete it (the API answers 404 for what it deleted): that is the call's success, answered as the
      // API documents it. After attempts that never reached the server, a 404 is the API's answer: an ApiException.
      if (status == 404 && method.equals("DELETE") && unknown != null && deleted != null) return deleted.deepCopy();
      JsonNode problem;
      try {
        problem = JSON.readTree(response.body());
      } catch (IOException e) {
        problem = null;
      }
      if (problem == null || !problem.isObject()) {
        String text = response.body();
        problem = JSON.createObjectNode().put("code", "http_" + status).put("detail", text.isEmpty() ? null : text.substring(0, Math.min(500, text.length())));
      }
      ApiException error = new ApiException(status, problem, response.headers(), requestId);
      if (status == 401 && auth && apiKey == null && !renewed) {
        // The token was revoked or expired early: a new one, once per call (not an attempt). Only the token this attempt
        // was refused is dropped — another call may have renewed it already — and renewals are shared (credential()).
        synchronized (this) {
          if (token != null && token.equals(used)) token = null;
        }
        renewed = true;
        attempt--;
        continue;
      }
      // A 409 is retried when the request was not applied: its key still in flight (idempotency_in_progress), or a race
      // lost before anything changed (retryable: true, the key released) — the same X-Request-Id is judged again.
      boolean retryable = status == 429 || (status == 503 && safe) || (status == 409 && ("idempotency_in_progress".equals(error.code()) || error.retryable()));
      long retryAfterMs = error.retryAfterSeconds() == null ? 0 : (long) Math.ceil(error.retryAfterSeconds() * 1000);
      // A Retry-After beyond the bound (a proxy's "come back tomorrow") is the caller's to handle: thrown at once.
      if (retryable && attempt < maxRetries && retryAfterMs <= maxRetryAfter.toMillis()) {
        sleep(Math.max(backoff(attempt), retryAfterMs), requestId);
        continue;
      }
      throw error;
    }
  }

  /** Whether a failure of the exchange (before any answer) certainly happened before the request was sent: the connection
   *  was never made — refused ({@link ConnectException}, which java.net.http also uses for a name that did not resolve,
   *  its cause an {@link UnresolvedAddressException}), no route, the connect timeout ({@link HttpConnectTimeoutException})
   *  — or the TLS handshake was refused ({@link SSLHandshakeException}). A reset or a closed connection may come after the
   *  request was written, and a timeout of the whole exchange may too: not these. */
  static boolean neverSent(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException || t instanceof UnresolvedAddressException
          || t instanceof UnknownHostException || t instanceof NoRouteToHostException || t instanceof SSLHandshakeException) {
        return true;
      }
    }
    return false;
  }

  /** A failure and its causes' messages ("java.net.ConnectException ← java.nio.channels.UnresolvedAddressException"). */
  private static String describe(Throwable failure) {
    StringBuilder text = new StringBuilder();
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 4; t = t.getCause() == t ? null : t.getCause(), depth++) {
      if (depth > 0) text.append(" <- ");
      text.append(t);
    }
    return text.toString();
  }

  /** What a DELETE whose earlier attempt deleted the resource answers, as the API documents it: {@code {id, object,
   *  deleted: true}}, the id being the path's last parameter and {@code object} its resource, singular, in snake case
   *  ({@code /v1/webhook-endpoints/{id}}: {@code webhook_endpoint}). Null for a DELETE without a path parameter. */
  static ObjectNode deletedAnswer(String template, Map<String, String> pathParams) {
    String[] segments = java.util.Arrays.stream(template.split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
    int at = segments.length - 1;
    while (at >= 0 && !(segments[at].startsWith("{") && segments[at].endsWith("}"))) at--;
    if (at < 1) return null;
    String resource = segments[at - 1].replace('-', '_');
    if (resource.endsWith("ies")) resource = resource.substring(0, resource.length() - 3) + "y";
    else if (resource.endsWith("s") && !resource.endsWith("ss")) resource = resource.substring(0, resource.length() - 1);
    ObjectNode answer = JSON.createObjectNode();
    answer.put("id", pathParams.get(segments[at].substring(1, segments[at].length() - 1)));
    answer.put("object", resource);
    answer.put("deleted", true);
    return answer;
  }

  /** A failure of the credential step (the token request) inside a call, as an exception of the call: it carries the
   *  call's own X-Request-Id (never the token request's) and the token's exception as its cause. When an earlier attempt
   *  of the call had an unknown outcome (it may have been applied), it is that attempt's TimeoutException or
   *  ConnectionException: the call is to be sent again with its requestId. */
  private static CreditPlatformException credentialFailure(String where, CreditPlatformException e, String requestId, CreditPlatformException unknown) {
    if (unknown != null) {
      String message = where + ": an earlier attempt's outcome is unknown (" + unknown.getMessage() + "), and the token could not be renewed: " + e.getMessage();
      return unknown instanceof CreditPlatformException.TimeoutException
          ? new CreditPlatformException.TimeoutException(message, e, requestId)
          : new CreditPlatformException.ConnectionException(message, e, requestId);
    }
    if (e instanceof ApiException) return ((ApiException) e).forCall(requestId);
    String message = where + ": the token request failed: " + e.getMessage();
    if (e instanceof CreditPlatformException.TimeoutException) return new CreditPlatformException.TimeoutException(message, e, requestId);
    if (e instanceof CreditPlatformException.ConnectionException) return new CreditPlatformException.ConnectionException(message, e, requestId);
    return new CreditPlatformException(message, e, requestId);
  }

  /** Exponential backoff with jitter: between half and all of base × 2^attempt, at most 20 s (ms). */
  private long backoff(int attempt) {
    long ceiling = Math.min(20_000L, retryBaseDelay.toMillis() * (1L << Math.min(attempt, 20)));
    return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
  }

  private synchronized String credential() {
    if (apiKey != null) return apiKey;
    if (token != null && System.currentTimeMillis() < tokenRenewAt) return token;
    String basic = Base64.getEncoder().encodeToString((URLEncoder.encode(clientId, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(clientSecret, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("accept", "application/json");
    headers.put("content-type", "application/x-www-form-urlencoded");
    headers.put("authorization", "Basic " + basic);
    String form = "grant_type=client_credentials" + (scope == null ? "" : "&scope=" + URLEncoder.encode(scope, StandardCharsets.UTF_8));
    JsonNode answer = send("POST", URI.create(baseUrl + "/v1/auth/token"), headers, form, false, true, timeout, null);
    token = answer.get("access_token").asText();
    // Renewed a minute before it expires, so that no request carries a token that lapses in flight.
    tokenRenewAt = System.currentTimeMillis() + Math.max(0, answer.get("expires_in").asLong() - 60) * 1000;
    return token;
  }

  private static void sleep(long ms, String requestId) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CreditPlatformException("Interrupted", e, requestId);
    }
  }
}
