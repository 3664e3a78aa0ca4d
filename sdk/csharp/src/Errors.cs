using System;
using System.Collections.Generic;
using System.Linq;
using System.IO;
using System.Net.Http;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>Every error of the SDK. RequestId: the call's X-Request-Id — the one the SDK sent (every POST: yours or the
    /// GUID it generated, the same on each retry), else the one the API answered with. On an unknown outcome (a timeout or
    /// a connection failure once the retries are spent, a 409 idempotency_in_progress), send the call again with it
    /// (Request.RequestId = e.RequestId). So too after an ApiException whose Retryable is true (a 409 conflict from a race
    /// lost before anything changed, once the retries are spent): the request is judged again.</summary>
    public class CreditPlatformException : Exception
    {
        public CreditPlatformException(string message) : base(message) { }
        public CreditPlatformException(string message, Exception inner) : base(message, inner) { }
        public CreditPlatformException(string message, Exception inner, string requestId) : base(message, inner) { RequestId = requestId; }

        /// <summary>The call's X-Request-Id (the one sent with a POST, else the one the API answered with), or null.</summary>
        public string RequestId { get; }
    }

    /// <summary>No answer, or not all of it: the connection failed or was cut (before or while the body arrived), or a
    /// success's body is not JSON (cut short on the way). The outcome is unknown: send the call again with its RequestId.</summary>
    public sealed class CreditPlatformConnectionException : CreditPlatformException
    {
        public CreditPlatformConnectionException(string message, Exception inner) : base(message, inner) { }
        public CreditPlatformConnectionException(string message, Exception inner, string requestId) : base(message, inner, requestId) { }
    }

    /// <summary>No answer, or not all of it, within the request's timeout (the whole exchange, body included).</summary>
    public sealed class CreditPlatformTimeoutException : CreditPlatformException
    {
        public CreditPlatformTimeoutException(string message, Exception inner) : base(message, inner) { }
        public CreditPlatformTimeoutException(string message, Exception inner, string requestId) : base(message, inner, requestId) { }
    }

    /// <summary>A field the API refused, from the problem's errors[].</summary>
    public sealed class FieldError
    {
        public string Param { get; set; }
        public string In { get; set; }
        public string Message { get; set; }
    }

    /// <summary>The API answered with an error status: the RFC 9457 problem's fields, the whole problem and the answer's
    /// headers.</summary>
    public sealed class ApiException : CreditPlatformException
    {
        private ApiException(int status, JObject problem, TimeSpan? retryAfter, IReadOnlyDictionary<string, string[]> headers, string requestId, Exception inner = null)
            : base(status + " " + (problem.Value<string>("code") ?? "http_" + status) + ": " + (problem.Value<string>("detail") ?? problem.Value<string>("title") ?? ""), inner, requestId)
        {
            Status = status;
            Problem = problem;
            Headers = headers;
            Code = problem.Value<string>("code") ?? "http_" + status;
            Type = problem.Value<string>("type") ?? "about:blank";
            Detail = problem.Value<string>("detail");
            RetryAfter = retryAfter;
            var retryable = problem["retryable"];
            Retryable = retryable != null && retryable.Type == JTokenType.Boolean && (bool)retryable;
            var errors = problem["errors"] as JArray;
            Errors = errors == null ? new List<FieldError>() : errors.Select(e => new FieldError { Param = e.Value<string>("param"), In = e.Value<string>("in"), Message = e.Value<string>("message") }).ToList();
        }

        public int Status { get; }
        public string Code { get; }
        public string Type { get; }
        public string Detail { get; }
        /// <summary>The answer's Retry-After (a delay, or an HTTP date as the time left), if it had one.</summary>
        public TimeSpan? RetryAfter { get; }
        /// <summary>The problem's retryable: true — the same request, sent again with the same X-Request-Id, may succeed: e.g.
        /// a 409 conflict from a race lost before anything changed (retried by the client after its Retry-After). False
        /// when the problem does not say so (a 409 conflict without it stays).</summary>
        public bool Retryable { get; }
        public IReadOnlyList<FieldError> Errors { get; }
        public JObject Problem { get; }
        /// <summary>The answer's headers, content headers included, by name (case-insensitive).</summary>
        public IReadOnlyDictionary<string, string[]> Headers { get; }

        /// <summary>This answer as an exception of another call (e.g. the one whose token request it answered): the call's
        /// own X-Request-Id (null: none), this one as its inner exception.</summary>
        internal ApiException ForCall(string callRequestId) => new ApiException(Status, Problem, RetryAfter, Headers, callRequestId, this);

        /// <summary>sentRequestId: the X-Request-Id sent with the call (default: the one in the problem or the answer's headers).</summary>
        internal static ApiException From(int status, string text, HttpResponseMessage response, string sentRequestId)
        {
            JObject problem = null;
            try { problem = JsonText.Parse(text) as JObject; } catch (Exception) { /* not JSON: below */ }
            if (problem == null || problem["code"] == null) problem = new JObject { ["type"] = "about:blank", ["title"] = response.ReasonPhrase ?? "Error", ["status"] = status, ["code"] = "http_" + status, ["detail"] = text.Length > 500 ? text.Substring(0, 500) : text };
            var headers = new Dictionary<string, string[]>(StringComparer.OrdinalIgnoreCase);
            foreach (var header in response.Headers) headers[header.Key] = header.Value.ToArray();
            if (response.Content != null) foreach (var header in response.Content.Headers) headers[header.Key] = header.Value.ToArray();
            var retry = response.Headers.RetryAfter;
            TimeSpan? retryAfter = retry == null ? (TimeSpan?)null : retry.Delta ?? (retry.Date.HasValue ? (TimeSpan?)Max(TimeSpan.Zero, retry.Date.Value - DateTimeOffset.UtcNow) : null);
            string[] ids;
            // The id sent first: it is the one to send the call again with (an intermediary may answer with its own).
            var requestId = sentRequestId ?? problem.Value<string>("request_id") ?? (headers.TryGetValue("X-Request-Id", out ids) ? ids.FirstOrDefault() : null);
            return new ApiException(status, problem, retryAfter, headers, requestId);
        }

        private static TimeSpan Max(TimeSpan a, TimeSpan b) => a > b ? a : b;
    }

    /// <summary>JSON as the API sent it: Json.NET's default DateParseHandling turns ISO timestamp strings (created_at…)
    /// into DateTime, losing their form and their Z. Every JSON the SDK reads goes through here.</summary>
    internal static class JsonText
    {
        internal static JToken Parse(string text)
        {
            using (var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None })
            {
                var token = JToken.ReadFrom(reader);
                while (reader.Read())
                {
                    if (reader.TokenType != JsonToken.Comment) throw new JsonReaderException("Additional text found in JSON string after parsing content.");
                }
                return token;
            }
        }
    }
}
