"""Checks a webhook delivery's Service-Signature header (Python 3.7 or later, standard library only).

v1 is the hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole signing secret (whsec_...).
After a secret is rolled the header carries one v1 per secret for 24 hours: any match will do.
raw_body is the body exactly as received (bytes), before any JSON parsing. A t more than five
minutes old is refused, so a captured delivery cannot be replayed later.

    python3 verify_signature.py "$HEADER" "$SECRET" < body.json   # prints valid or invalid
"""
import hashlib
import hmac
import sys
import time


def verify_signature(header, raw_body, secret, now=None):
    if not header:
        return False
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamps = [value for key, value in parts if key == "t"]
    if not timestamps or not timestamps[0].isdigit():
        return False
    t = int(timestamps[0])
    if (time.time() if now is None else now) - t > 300:
        return False
    expected = hmac.new(secret.encode(), str(t).encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(value.encode(), expected.encode()) for key, value in parts if key == "v1")


if __name__ == "__main__":
    valid = verify_signature(sys.argv[1], sys.stdin.buffer.read(), sys.argv[2])
    print("valid" if valid else "invalid")
    sys.exit(0 if valid else 1)
