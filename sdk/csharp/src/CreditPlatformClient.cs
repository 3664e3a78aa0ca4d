using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>What one call sends besides its path parameters: query, body, idempotency key, timeout, cancellation.</summary>
    public sealed class Request
    {
        public IDictionary<string, object> Query { get; } = new Dictionary<string, object>();
        /// <summary>The JSON body: an anonymous object, a dictionary, a JToken or any object Json.NET writes.</summary>
        public object Body { get; set; }
        /// <summary>The X-Request-Id of a POST, its idempotency key (default: a random GUID), the same on every retry of this
        /// call. Every exception of the call carries it (e.RequestId): on an unknown outcome, send the call again with it.</summary>
        public string RequestId { get; set; }
        /// <summary>This call's timeout per attempt, the answer's body included (default: the client's).</summary>
        public TimeSpan? Timeout { get; set; }
        public CancellationToken CancellationToken { get; set; }
        /// <summary>Extra request headers for this call, e.g. ["X-Provider-Signature"] for ReceiveProviderNotificationAsync. The
        /// headers the SDK sets itself (Accept, Authorization, Content-Length, Content-Type, Host, User-Agent, X-Request-Id —
        /// set RequestId — and X-Tenant-Id) cannot be given here: the call throws a CreditPlatformException.</summary>
        public IDictionary<string, string> Headers { get; } = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);

        public static Request WithBody(object body) => new Request { Body = body };
        public Request WithHeader(string name, string value)
        {
            if (value != null) Headers[name] = value;
            return this;
        }
        public Request WithQuery(string name, object value)
        {
            if (value != null) Query[name] = value;
            return this;
        }

        internal Request CopyWithQuery(string name, object value)
        {
            var copy = new Request { Body = Body, RequestId = RequestId, Timeout = Timeout, CancellationToken = CancellationToken };
            foreach (var pair in Query) copy.Query[pair.Key] = pair.Value;
            foreach (var pair in Headers) copy.Headers[pair.Key] = pair.Value;
            copy.Query[name] = value;
            return copy;
        }
    }

    /// <summary>How to reach the API and who calls it.</summary>
    public sealed class CreditPlatformOptions
    {
        /// <summary>Your tenant's id (X-Tenant-Id).</summary>
        public string TenantId { get; set; }
        /// <summary>The API's base address (without /v1); or Environment with BaseUrls.</summary>
        public string BaseUrl { get; set; }
        /// <summary>"sandbox" or "production" (anything else: ArgumentException): picks BaseUrls[Environment] (default
        /// CREDIT_PLATFORM_&lt;ENV&gt;_URL).</summary>
        public string Environment { get; set; }
        public IDictionary<string, string> BaseUrls { get; set; } = new Dictionary<string, string>();
        /// <summary>An API key (sk_test_… sandbox, sk_live_… production)…</summary>
        public string ApiKey { get; set; }
        /// <summary>…or OAuth2 client credentials: the token is fetched, cached and renewed before it expires.</summary>
        public string ClientId { get; set; }
        public string ClientSecret { get; set; }
        public string Scope { get; set; }
        /// <summary>Per-attempt timeout (default 30 s), the answer's body included.</summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);
        /// <summary>Retries of 429, 409 idempotency_in_progress, 409 with retryable: true (a race lost before anything
        /// changed), and of 503 and network failures of safe requests (default 3).</summary>
        public int MaxRetries { get; set; } = 3;
        /// <summary>First backoff delay (default 500 ms; doubles each retry, with jitter, at most 20 s).</summary>
        public TimeSpan RetryBaseDelay { get; set; } = TimeSpan.FromMilliseconds(500);
        /// <summary>The longest Retry-After waited for before a retry (default 60 s): an answer asking for a longer wait is
        /// thrown at once, as an ApiException whose RetryAfter says how long.</summary>
        public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);
        /// <summary>A handler of your own (proxy settings, tests); default: an HttpClientHandler that never follows redirects.</summary>
        public HttpMessageHandler Handler { get; set; }
    }

    /// <summary>A client of the Credit Platform API: one request path (credentials, tenant, request ids, retries, timeouts,
    /// errors) under one method per operation (GeneratedOperations.cs, from the OpenAPI document).</summary>
    public partial class CreditPlatformClient : IDisposable
    {
        public const string Version = "1.4.0";
        private static readonly Random Jitter = new Random();
        /// <summary>The headers the SDK sets itself: not to be given in Request.Headers.</summary>
        private static readonly HashSet<string> SdkHeaders = new HashSet<string>(new[] { "Accept", "Authorization", "Content-Type", "Content-Length", "Host", "User-Agent", "X-Request-Id", "X-Tenant-Id" }, StringComparer.OrdinalIgnoreCase);
        private readonly CreditPlatformOptions options;
        private readonly HttpClient http;
        private readonly string baseUrl;
        private readonly SemaphoreSlim tokenLock = new SemaphoreSlim(1, 1);
        private string token;
        private DateTime tokenRenewAt;

        public CreditPlatformClient(CreditPlatformOptions options)
        {
            if (options == null || string.IsNullOrEmpty(options.TenantId)) throw new CreditPlatformException("TenantId is required");
            if (options.ApiKey == null && (options.ClientId == null || options.ClientSecret == null)) throw new CreditPlatformException("Give ApiKey, or ClientId and ClientSecret");
            if (options.Environment != null && options.Environment != "sandbox" && options.Environment != "production")
                throw new ArgumentException("Environment is \"sandbox\" or \"production\", not \"" + options.Environment + "\"", nameof(options));
            var url = options.BaseUrl;
            if (url == null && options.Environment != null)
            {
                if (!options.BaseUrls.TryGetValue(options.Environment, out url)) url = System.Environment.GetEnvironmentVariable("CREDIT_PLATFORM_" + options.Environment.ToUpperInvariant() + "_URL");
            }
            if (url == null) throw new CreditPlatformException("Give BaseUrl, or Environment with BaseUrls (or CREDIT_PLATFORM_<ENVIRONMENT>_URL)");
            if (options.ApiKey != null && options.Environment != null)
            {
                var prefix = options.Environment == "production" ? "sk_live_" : "sk_test_";
                if (!options.ApiKey.StartsWith(prefix, StringComparison.Ordinal)) throw new CreditPlatformException("A " + options.Environment + " key starts with " + prefix);
            }
            this.options = options;
            baseUrl = url.TrimEnd('/');
            http = new HttpClient(options.Handler ?? new HttpClientHandler { AllowAutoRedirect = false }) { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
            http.DefaultRequestHeaders.UserAgent.ParseAdd("credit-platform-csharp/" + Version);
        }

        public string TenantId => options.TenantId;

        /// <summary>Every item of a paginated list operation (e.g. "listCustomers"), page after page.</summary>
        public IEnumerable<JToken> Paginate(string operationId, Request request = null)
        {
            return Paginate(operationId, NoPathParams, request);
        }

        /// <summary>Every item of a paginated list operation with path parameters (e.g. "listContractInstallments", {"id": …}).</summary>
        public IEnumerable<JToken> Paginate(string operationId, IDictionary<string, string> pathParams, Request request = null)
        {
            Operation op;
            if (!Operations.All.TryGetValue(operationId, out op) || !op.Paginated) throw new CreditPlatformException(operationId + " is not a paginated list operation");
            request = request ?? new Request();
            string cursor = null;
            while (true)
            {
                var page = CallAsync(operationId, pathParams, cursor == null ? request : request.CopyWithQuery("cursor", cursor)).GetAwaiter().GetResult();
                foreach (var item in page["data"]) yield return item;
                cursor = page.Value<string>("next_cursor");
                if (!page.Value<bool>("has_more") || cursor == null) yield break;
            }
        }

        /// <summary>Calls one operation by its operationId (what every generated method does).</summary>
        public async Task<JToken> CallAsync(string operationId, IDictionary<string, string> pathParams, Request request)
        {
            Operation op;
            if (!Operations.All.TryGetValue(operationId, out op)) throw new CreditPlatformException("Unknown operation " + operationId);
            request = request ?? new Request();
            var path = op.Path;
            foreach (var name in op.PathParams)
            {
                string value;
                if (!pathParams.TryGetValue(name, out value) || string.IsNullOrEmpty(value)) throw new CreditPlatformException(operationId + ": path parameter " + name + " is required");
                path = path.Replace("{" + name + "}", Uri.EscapeDataString(value));
            }
            var query = string.Join("&", request.Query.Select(p => Uri.EscapeDataString(p.Key) + "=" + Uri.EscapeDataString(Text(p.Value))));
            var uri = new Uri(baseUrl + path + (query.Length == 0 ? "" : "?" + query));
            string body = null;
            string mediaType = null;
            if (op.Body == "application/x-www-form-urlencoded")
            {
                mediaType = op.Body;
                var form = request.Body == null ? new JObject() : JObject.FromObject(request.Body);
                body = string.Join("&", form.Properties().Select(p => Uri.EscapeDataString(p.Name) + "=" + Uri.EscapeDataString(Text(p.Value))));
            }
            else if (op.Body != null)
            {
                mediaType = "application/json";
                body = request.Body == null ? "{}" : JsonConvert.SerializeObject(request.Body);
            }
            foreach (var header in request.Headers.Keys)
            {
                if (SdkHeaders.Contains(header)) throw new CreditPlatformException(operationId + ": the " + header + " header is set by the SDK");
            }
            var requestId = op.Method == "POST" ? request.RequestId ?? Guid.NewGuid().ToString() : null;
            var safe = op.RetrySafe; // GET, PUT, DELETE, and POSTs the server replays by their X-Request-Id (never /v1/auth/token)
            var deleted = op.Method == "DELETE" ? DeletedAnswer(op.Path, pathParams) : null;
            return await SendAsync(new HttpMethod(op.Method), uri, body, mediaType, requestId, op.Auth, safe, request.Timeout ?? options.Timeout, request.CancellationToken, null, request.Headers, deleted).ConfigureAwait(false);
        }

        /// <summary>deleted: a DELETE's documented answer, what the call returns when a retry of it finds nothing (see below).</summary>
        private async Task<JToken> SendAsync(HttpMethod method, Uri uri, string body, string mediaType, string requestId, bool auth, bool safe, TimeSpan timeout, CancellationToken cancel, string basic, IDictionary<string, string> extraHeaders = null, JObject deleted = null)
        {
            var where = method + " " + uri.AbsolutePath;
            var renewed = false;
            // The last attempt whose outcome is unknown (it may have reached the server and been applied, but no whole answer
            // came back). An attempt that never reached the server — refused, a name that did not resolve, no route, a TLS
            // handshake refused — is no such attempt: nothing was applied.
            CreditPlatformException unknown = null;
            for (var attempt = 0; ; attempt++)
            {
                var message = new HttpRequestMessage(method, uri);
                if (extraHeaders != null)
                {
                    foreach (var header in extraHeaders)
                    {
                        if (!message.Headers.TryAddWithoutValidation(header.Key, header.Value)) throw new CreditPlatformException(where + ": the " + header.Key + " header cannot be sent as a request header");
                    }
                }
                message.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
                if (requestId != null) message.Headers.Add("X-Request-Id", requestId);
                if (basic != null) message.Headers.Authorization = new AuthenticationHeaderValue("Basic", basic);
                string used = null;
                if (auth)
                {
                    try
                    {
                        used = await CredentialAsync(cancel).ConfigureAwait(false);
                    }
                    catch (CreditPlatformException e)
                    {
                        throw CredentialFailure(where, e, requestId, unknown);
                    }
                    message.Headers.Authorization = new AuthenticationHeaderValue("Bearer", used);
                    message.Headers.Add("X-Tenant-Id", options.TenantId);
                }
                if (body != null) message.Content = new StringContent(body, Encoding.UTF8, mediaType);
                // One attempt is the whole exchange — the answer and its body (read by SendAsync) and its JSON — within
                // the timeout: a failure anywhere in it is a connection or timeout exception, retried where allowed.
                HttpResponseMessage response = null;
                CreditPlatformException failure = null;
                var neverSent = false;
                using (var attemptTimeout = CancellationTokenSource.CreateLinkedTokenSource(cancel))
                {
                    attemptTimeout.CancelAfter(timeout);
                    try
                    {
                        response = await http.SendAsync(message, attemptTimeout.Token).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException e) when (!cancel.IsCancellationRequested)
                    {
                        failure = new CreditPlatformTimeoutException(where + ": no answer (or not all of it) within " + timeout.TotalMilliseconds + " ms", e, requestId);
                    }
                    catch (Exception e) when (e is HttpRequestException || e is System.IO.IOException)
                    {
                        neverSent = NeverSent(e);
                        var reason = neverSent ? "no connection, the request was not sent: " : "";
                        failure = new CreditPlatformConnectionException(where + ": " + reason + (e.InnerException ?? e).Message, e, requestId);
                    }
                }
                if (response != null)
                {
                    using (response)
                    {
                        var text = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                        var status = (int)response.StatusCode;
                        if (status >= 200 && status < 300)
                        {
                            if (text.Length == 0) return JValue.CreateNull();
                            try { return JsonText.Parse(text); }
                            catch (JsonException e)
                            {
                                // A success whose body is not JSON: cut short on the way (a close-delimited answer), or not the API.
                                failure = new CreditPlatformConnectionException(where + ": the " + status + " answer's body is not JSON (" + e.Message + ")", e, requestId);
                            }
                        }
                        else
                        {
                            // A DELETE sent again after an attempt that may have reached the server (its outcome unknown) finds
                            // nothing when that attempt did delete it (the API answers 404 for what it deleted): that is the call's
                            // success, answered as the API documents it. After attempts that never reached the server, a 404 is
                            // the API's answer: an ApiException.
                            if (status == 404 && method == HttpMethod.Delete && unknown != null && deleted != null) return deleted.DeepClone();
                            var error = ApiException.From(status, text, response, requestId);
                            if (status == 401 && auth && options.ApiKey == null && !renewed)
                            {
                                // The token was revoked or expired early: a new one, once per call (not an attempt). Only the token
                                // this attempt was refused is dropped — another call may have renewed it already — and renewals
                                // are shared (CredentialAsync).
                                Interlocked.CompareExchange(ref token, null, used);
                                renewed = true;
                                attempt--;
                                continue;
                            }
                            // A 409 is retried when the request was not applied: its key still in flight (idempotency_in_progress), or
                            // a race lost before anything changed (retryable: true, the key released) — the same X-Request-Id is judged again.
                            var retryable = status == 429 || (status == 503 && safe) || (status == 409 && (error.Code == "idempotency_in_progress" || error.Retryable));
                            // A Retry-After beyond the bound (a proxy's "come back tomorrow") is the caller's to handle: thrown at once.
                            if (retryable && attempt < options.MaxRetries && (!error.RetryAfter.HasValue || error.RetryAfter.Value <= options.MaxRetryAfter))
                            {
                                var wait = Backoff(attempt);
                                if (error.RetryAfter.HasValue && error.RetryAfter.Value > wait) wait = error.RetryAfter.Value;
                                await Task.Delay(wait, cancel).ConfigureAwait(false);
                                continue;
                            }
                            throw error;
                        }
                    }
                }
                if (!neverSent) unknown = failure;
                if (safe && attempt < options.MaxRetries)
                {
                    await Task.Delay(Backoff(attempt), cancel).ConfigureAwait(false);
                    continue;
                }
                throw failure;
            }
        }

        /// <summary>Whether a failure of the exchange (before any answer) certainly happened before the request was sent: the
        /// connection was never made — a SocketException refused (ConnectionRefused), a name that did not resolve
        /// (HostNotFound, TryAgain, NoData), no route or network, or a WebException saying so (ConnectFailure,
        /// NameResolutionFailure) — or the TLS handshake was refused (AuthenticationException). A reset or a closed connection
        /// may come after the request was written, and a timeout may too: not these.</summary>
        internal static bool NeverSent(Exception failure)
        {
            for (var e = failure; e != null; e = e.InnerException)
            {
                var socket = e as System.Net.Sockets.SocketException;
                if (socket != null && NotConnected.Contains(socket.SocketErrorCode)) return true;
                var web = e as WebException;
                if (web != null && (web.Status == WebExceptionStatus.ConnectFailure || web.Status == WebExceptionStatus.NameResolutionFailure || web.Status == WebExceptionStatus.ProxyNameResolutionFailure)) return true;
                if (e is System.Security.Authentication.AuthenticationException) return true;
            }
            return false;
        }

        private static readonly HashSet<System.Net.Sockets.SocketError> NotConnected = new HashSet<System.Net.Sockets.SocketError>
        {
            System.Net.Sockets.SocketError.ConnectionRefused,
            System.Net.Sockets.SocketError.HostNotFound,
            System.Net.Sockets.SocketError.TryAgain,
            System.Net.Sockets.SocketError.NoData,
            System.Net.Sockets.SocketError.HostUnreachable,
            System.Net.Sockets.SocketError.HostDown,
            System.Net.Sockets.SocketError.NetworkUnreachable,
            System.Net.Sockets.SocketError.NetworkDown,
            System.Net.Sockets.SocketError.AddressNotAvailable,
        };

        /// <summary>What a DELETE whose earlier attempt deleted the resource answers, as the API documents it: {id, object,
        /// deleted: true}, the id being the path's last parameter and object its resource, singular, in snake case
        /// (/v1/webhook-endpoints/{id}: webhook_endpoint). Null for a DELETE without a path parameter.</summary>
        internal static JObject DeletedAnswer(string template, IDictionary<string, string> pathParams)
        {
            var segments = template.Split(new[] { '/' }, StringSplitOptions.RemoveEmptyEntries);
            var at = segments.Length - 1;
            while (at >= 0 && !(segments[at].StartsWith("{", StringComparison.Ordinal) && segments[at].EndsWith("}", StringComparison.Ordinal))) at--;
            if (at < 1) return null;
            var resource = segments[at - 1].Replace('-', '_');
            if (resource.EndsWith("ies", StringComparison.Ordinal)) resource = resource.Substring(0, resource.Length - 3) + "y";
            else if (resource.EndsWith("s", StringComparison.Ordinal) && !resource.EndsWith("ss", StringComparison.Ordinal)) resource = resource.Substring(0, resource.Length - 1);
            string id;
            pathParams.TryGetValue(segments[at].Substring(1, segments[at].Length - 2), out id);
            return new JObject { ["id"] = id, ["object"] = resource, ["deleted"] = true };
        }

        /// <summary>A failure of the credential step (the token request) inside a call, as an exception of the call: it
        /// carries the call's own X-Request-Id (never the token request's) and the token's exception as its inner exception.
        /// When an earlier attempt of the call had an unknown outcome (it may have been applied), it is that attempt's
        /// timeout or connection exception: the call is to be sent again with its RequestId.</summary>
        private static CreditPlatformException CredentialFailure(string where, CreditPlatformException e, string requestId, CreditPlatformException unknown)
        {
            if (unknown != null)
            {
                var message = where + ": an earlier attempt's outcome is unknown (" + unknown.Message + "), and the token could not be renewed: " + e.Message;
                if (unknown is CreditPlatformTimeoutException) return new CreditPlatformTimeoutException(message, e, requestId);
                return new CreditPlatformConnectionException(message, e, requestId);
            }
            var api = e as ApiException;
            if (api != null) return api.ForCall(requestId);
            var failed = where + ": the token request failed: " + e.Message;
            if (e is CreditPlatformTimeoutException) return new CreditPlatformTimeoutException(failed, e, requestId);
            if (e is CreditPlatformConnectionException) return new CreditPlatformConnectionException(failed, e, requestId);
            return new CreditPlatformException(failed, e, requestId);
        }

        /// <summary>Exponential backoff with jitter: between half and all of base × 2^attempt, at most 20 s.</summary>
        private TimeSpan Backoff(int attempt)
        {
            var ceiling = Math.Min(20000.0, options.RetryBaseDelay.TotalMilliseconds * Math.Pow(2, attempt));
            double random;
            lock (Jitter) random = Jitter.NextDouble();
            return TimeSpan.FromMilliseconds(ceiling / 2 + random * ceiling / 2);
        }

        private async Task<string> CredentialAsync(CancellationToken cancel)
        {
            if (options.ApiKey != null) return options.ApiKey;
            await tokenLock.WaitAsync(cancel).ConfigureAwait(false);
            try
            {
                if (token != null && DateTime.UtcNow < tokenRenewAt) return token;
                var basic = Convert.ToBase64String(Encoding.UTF8.GetBytes(Uri.EscapeDataString(options.ClientId) + ":" + Uri.EscapeDataString(options.ClientSecret)));
                var form = "grant_type=client_credentials" + (options.Scope == null ? "" : "&scope=" + Uri.EscapeDataString(options.Scope));
                var answer = await SendAsync(HttpMethod.Post, new Uri(baseUrl + "/v1/auth/token"), form, "application/x-www-form-urlencoded", null, false, true, options.Timeout, cancel, basic).ConfigureAwait(false);
                token = answer.Value<string>("access_token");
                // Renewed a minute before it expires, so that no request carries a token that lapses in flight.
                tokenRenewAt = DateTime.UtcNow.AddSeconds(Math.Max(0, answer.Value<int>("expires_in") - 60));
                return token;
            }
            finally
            {
                tokenLock.Release();
            }
        }

        private static string Text(object value)
        {
            if (value is bool b) return b ? "true" : "false";
            if (value is JValue j) return j.Type == JTokenType.Boolean ? ((bool)j ? "true" : "false") : Convert.ToString(j.Value, System.Globalization.CultureInfo.InvariantCulture);
            return Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture);
        }

        public void Dispose() => http.Dispose();
    }
}
