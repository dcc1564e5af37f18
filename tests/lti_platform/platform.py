"""A second LTI 1.3 platform for nimlab's tests, built on PyPI's lti1p3platform.

nimlab's own tests launch it from a fake platform written in Rust
(tests/it/serve/lti.rs); this one is an independent implementation: the login
initiation, the signed id_token, the access tokens and their checks are the
library's. It runs on 127.0.0.1 (as http://localhost:PORT, its issuer), with a
fresh RSA key, and prints `listening http://localhost:PORT` once it is ready.

    python platform.py --tool http://127.0.0.1:8000 --client-id ID --deployment-id ID

Routes:
    GET  /jwks                       the platform's keys
    GET  /start?hint=H[&deep=1]      the login initiation: a redirect to TOOL/lti/login
    GET  /auth?...                   the tool's authentication request: a page that posts
                                     the id_token to the tool (a resource link launch, or
                                     a deep linking request when the hint asked for one)
    POST /token                      access tokens for the tool (client credentials)
    POST /lineitems/N/lineitem/scores?...   a score, recorded
    POST /deep-return                a deep linking response, its items recorded
    GET  /received                   {"scores": [...], "items": [...], "refusals": [...]}
"""

import argparse
import html
import importlib.resources
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.exceptions import MissingRequiredClaim, UnsupportedGrantType
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
# Who a login hint is: sub, roles, name, email.
USERS = {
    "learner-1": ("py-user-1", [MEMBERSHIP + "#Learner"], "Py Learner", "py.learner@uni.example"),
    "teacher-1": (
        "py-teacher-1", [MEMBERSHIP + "#Instructor"], "Py Teacher", "py.teacher@uni.example"
    ),
}
DEEP_LINK_DATA = {"opaque": "xyz"}


class Platform(LTI1P3PlatformConfAbstract):
    """The one registration: this platform and the nimlab it launches."""

    def init_platform_config(self, **kwargs):
        self.settings = kwargs

    def get_registration_by_params(self, **kwargs):
        s, tool = self.settings, self.settings["tool"]
        return (
            Registration()
            .set_iss(s["base"])
            .set_client_id(s["client_id"])
            .set_deployment_id(s["deployment_id"])
            .set_oidc_login_url(tool + "/lti/login")
            .set_launch_url(tool + "/lti/launch")
            .set_deeplink_launch_url(tool + "/lti/launch")
            .set_tool_key_set_url(tool + "/lti/jwks")
            .set_platform_private_key(s["private_key"])
            .set_platform_public_key(s["public_key"])
        )


class HttpRequest(Request):
    """The library's view of one request: a dict with its query (get_data) and form."""

    def build_metadata(self, request):
        return request


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs):
        self._lti_message_hint = kwargs["lti_message_hint"]

    def get_redirect(self, url):
        return url


class Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data, **kwargs):
        # The library's own page (a Jinja template; filled in here without Jinja).
        template = importlib.resources.files("lti1p3platform") / "framework/templates/launch.html"
        page = template.read_text()
        for name in ("launch_url", "id_token", "state"):
            page = page.replace("{{ %s }}" % name, html.escape(launch_data[name]))
        return page


class Handler(BaseHTTPRequestHandler):
    platform = None  # set in main
    # One request at a time: the library keeps the JWT it checks on the platform object.
    lock = threading.RLock()
    received = {"scores": [], "items": [], "refusals": []}

    def do_GET(self):
        with self.lock:
            self.get()

    def do_POST(self):
        with self.lock:
            self.post()

    def get(self):
        url = urlsplit(self.path)
        query = dict(parse_qsl(url.query))
        if url.path == "/jwks":
            self.answer(200, self.platform.get_jwks())
        elif url.path == "/start":
            self.start(query)
        elif url.path == "/auth":
            self.authorize(query)
        elif url.path == "/received":
            self.answer(200, self.received)
        else:
            self.answer(404, {"error": "not found"})

    def post(self):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace")
        if url.path == "/token":
            self.token(dict(parse_qsl(body)))
        elif url.path.startswith("/lineitems/") and url.path.endswith("/lineitem/scores"):
            self.score(body)
        elif url.path == "/deep-return":
            self.deep_return(dict(parse_qsl(body)))
        else:
            self.answer(404, {"error": "not found"})

    def start(self, query):
        hint = query.get("hint", "")
        login = Login(HttpRequest({"get_data": query}), self.platform)
        deep = query.get("deep") == "1"
        login.set_lti_message_hint(lti_message_hint=hint + (":deep" if deep else ""))
        if deep:
            login.set_deeplinking_launch_url()
        self.redirect(login.initiate_login(hint))

    def authorize(self, query):
        """The tool's authentication request, answered by the library's launch page."""
        user = USERS.get(query.get("login_hint"))
        registration = self.platform.get_registration()
        if user is None or query.get("redirect_uri") != registration.get_launch_url():
            return self.refuse(400, "authorize: unknown user or redirect_uri in %s" % query)
        base = self.platform.settings["base"]
        launch = Launch(HttpRequest({"get_data": query, "form_data": {}}), self.platform)
        sub, roles, name, email = user
        launch.set_user_data(sub, roles, full_name=name, email_address=email)
        launch.set_resource_link_claim("py-link-1", title="Present the board")
        launch.set_launch_context_claim("py-course-3", context_title="Python lab")
        launch.set_custom_parameters_claim({"exercise": "present_board"})
        # A line item with a query string, as Moodle's have.
        launch.set_ags(
            lineitems_url=base + "/lineitems", lineitem_url=base + "/lineitems/7/lineitem?course=3"
        )
        if query.get("lti_message_hint", "").endswith(":deep"):
            launch.set_dl(
                deep_link_return_url=base + "/deep-return",
                title="Choose an exercise",
                accept_types={"ltiResourceLink"},
                extra_data=DEEP_LINK_DATA,
            )
        try:
            page = launch.lti_launch()
        except Exception as e:  # the library's refusal of the tool's request
            return self.refuse(400, "authorize: %r for %s" % (e, query))
        self.answer(200, page)

    def token(self, form):
        try:
            self.answer(200, self.platform.get_access_token(form))
        except MissingRequiredClaim as e:
            self.refuse(400, "token: %r" % e)
        except UnsupportedGrantType as e:
            self.refuse(400, "token: %r" % e, "unsupported_grant_type")
        except Exception as e:  # the client assertion does not verify
            self.refuse(401, "token: %r" % e, "invalid_client")

    def score(self, body):
        authorization = self.headers.get("Authorization", "")
        try:
            if not authorization.startswith("Bearer "):
                raise ValueError("no bearer token: %r" % authorization[:40])
            token = authorization[len("Bearer "):]
            if not self.platform.validate_token(token, allowed_scopes=[SCORE_SCOPE]):
                raise ValueError("the token's scopes do not include the score scope")
        except Exception as e:
            return self.refuse(401, "score: %r" % e, "invalid_token")
        try:
            score = json.loads(body)
        except ValueError:
            return self.refuse(400, "score: not JSON: %r" % body[:200])
        self.received["scores"].append({
            "path_and_query": self.path,
            "content_type": self.headers.get("Content-Type"),
            "body": score,
        })
        self.answer(200, {})

    def deep_return(self, form):
        try:
            items = self.platform.validate_deeplinking_resp(form)
            claims = self.platform._jwt["body"]  # the response the library checked
            base = self.platform.settings["base"]
            if claims.get("https://purl.imsglobal.org/spec/lti-dl/claim/data") != DEEP_LINK_DATA:
                raise ValueError("the response does not return the request's data")
            if claims.get("aud") not in (base, [base]):
                raise ValueError("the response's aud is not this platform")
        except Exception as e:
            return self.refuse(400, "deep-return: %r" % e)
        self.received["items"].extend(items)
        self.answer(200, "<!doctype html><title>LMS</title><p>received %d items</p>" % len(items))

    def refuse(self, status, why, error="invalid_request"):
        print("refused: " + why, file=sys.stderr, flush=True)
        self.received["refusals"].append(why)
        self.answer(status, {"error": error, "error_description": why})

    def redirect(self, url):
        self.send_response(302)
        self.send_header("Location", url)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def answer(self, status, content):
        is_page = isinstance(content, str)
        data = (content if is_page else json.dumps(content)).encode()
        self.send_response(status)
        kind = "text/html; charset=utf-8" if is_page else "application/json"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True, help="nimlab's base URL")
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--deployment-id", required=True)
    args = parser.parse_args()
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = "http://localhost:%d" % server.server_address[1]
    Handler.platform = Platform(
        base=base,
        tool=args.tool.rstrip("/"),
        client_id=args.client_id,
        deployment_id=args.deployment_id,
        private_key=private_pem,
        public_key=public_pem,
    )
    Handler.platform.get_registration()
    print("listening " + base, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
