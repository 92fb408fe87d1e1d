"""A phone as the server sees it over HTTP: its own cookies, a CSRF token, outbox-style posts.

Used by the crash test and the load benchmark; loopback only.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

OUTBOX_HEADERS = {"X-Requested-With": "outbox", "Accept": "application/json"}


class Unreachable(Exception):
    """The server did not answer (down, restarting, or the connection dropped)."""


@dataclass
class Phone:
    base: str
    cookies: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)
    csrf: str | None = None

    #: For https: the client's TLS (the bench's certificate is its own, not one a CA signed).
    context: ssl.SSLContext | None = None

    def __post_init__(self) -> None:
        handlers: list[urllib.request.BaseHandler] = [urllib.request.HTTPCookieProcessor(self.cookies)]
        if self.context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=self.context))
        self.opener = urllib.request.build_opener(*handlers)

    def get_json(self, path: str, timeout: float = 5) -> dict:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as response:
                return json.loads(response.read())
        except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException) as error:
            raise Unreachable(str(error)) from None

    def post(self, path: str, data: dict[str, object], timeout: float = 10) -> tuple[int, dict]:
        """Post as the outbox does; a fresh CSRF token is fetched when there is none or it was refused."""
        for _ in range(2):
            if self.csrf is None:
                self.csrf = self.get_json("/csrf")["token"]
            body = urllib.parse.urlencode({"csrf_token": self.csrf, **data}).encode()
            # A browser names the page a post comes from; over https the CSRF check insists on it.
            headers = {**OUTBOX_HEADERS, "Referer": self.base + "/"}
            request = urllib.request.Request(self.base + path, data=body, headers=headers, method="POST")
            try:
                with self.opener.open(request, timeout=timeout) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as error:
                payload = json.loads(error.read() or b"{}")
                if error.code == 400 and payload.get("csrf"):
                    self.csrf = None
                    continue
                if error.code >= 500:
                    raise Unreachable(f"server error {error.code}") from None
                return error.code, payload
            except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException) as error:
                raise Unreachable(str(error)) from None
        raise Unreachable("the CSRF token was refused twice")
