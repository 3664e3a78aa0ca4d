"""Credit Platform API client (Python). See README.md."""
from .client import CreditPlatform, __version__
from .errors import ApiError, ConnectionError, CreditPlatformError, TimeoutError
from .operations import OPERATIONS
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["CreditPlatform", "__version__", "ApiError", "ConnectionError", "CreditPlatformError", "TimeoutError", "OPERATIONS", "WebhookVerificationError", "verify_webhook"]
