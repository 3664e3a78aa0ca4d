using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>Every error of the SDK.</summary>
    public class CreditPlatformException : Exception
    {
        public CreditPlatformException(string message) : base(message) { }
        public CreditPlatformException(string message, Exception inner) : base(message, inner) { }
    }

    /// <summary>No answer: the connection failed or was cut.</summary>
    public sealed class CreditPlatformConnectionException : CreditPlatformException
    {
        public CreditPlatformConnectionException(string message, Exception inner) : base(message, inner) { }
    }

    /// <summary>No answer within the request's timeout.</summary>
    public sealed class CreditPlatformTimeoutException : CreditPlatformException
    {
        public CreditPlatformTimeoutException(string message, Exception inner) : base(message, inner) { }
    }

    /// <summary>A field the API refused, from the problem's errors[].</summary>
    public sealed class FieldError
    {
        public string Param { get; set; }
        public string In { get; set; }
        public string Message { get; set; }
    }

    /// <summary>The API answered with an error status: the RFC 9457 problem's fields, and the whole problem.</summary>
    public sealed class ApiException : CreditPlatformException
    {
        private ApiException(int status, JObject problem, TimeSpan? retryAfter, string requestIdHeader)
            : base(status + " " + (problem.Value<string>("code") ?? "http_" + status) + ": " + (problem.Value<string>("detail") ?? problem.Value<string>("title") ?? ""))
        {
            Status = status;
            Problem = problem;
            Code = problem.Value<string>("code") ?? "http_" + status;
            Type = problem.Value<string>("type") ?? "about:blank";
            Detail = problem.Value<string>("detail");
            RequestId = problem.Value<string>("request_id") ?? requestIdHeader;
            RetryAfter = retryAfter;
            var errors = problem["errors"] as JArray;
            Errors = errors == null ? new List<FieldError>() : errors.Select(e => new FieldError { Param = e.Value<string>("param"), In = e.Value<string>("in"), Message = e.Value<string>("message") }).ToList();
        }

        public int Status { get; }
        public string Code { get; }
        public string Type { get; }
        public string Detail { get; }
        public string RequestId { get; }
        public TimeSpan? RetryAfter { get; }
        public IReadOnlyList<FieldError> Errors { get; }
        public JObject Problem { get; }

        internal static ApiException From(int status, string text, HttpResponseMessage response)
        {
            JObject problem = null;
            try { problem = JToken.Parse(text) as JObject; } catch (Exception) { /* not JSON: below */ }
            if (problem == null || problem["code"] == null) problem = new JObject { ["type"] = "about:blank", ["title"] = response.ReasonPhrase ?? "Error", ["status"] = status, ["code"] = "http_" + status, ["detail"] = text.Length > 500 ? text.Substring(0, 500) : text };
            var retryAfter = response.Headers.RetryAfter?.Delta;
            IEnumerable<string> ids;
            var requestId = response.Headers.TryGetValues("X-Request-Id", out ids) ? ids.FirstOrDefault() : null;
            return new ApiException(status, problem, retryAfter, requestId);
        }
    }
}
