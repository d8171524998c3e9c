//! Who may ask: the checks every request passes before any handler runs, and the headers
//! every answer carries.
//!
//! - The `Host` header must name 127.0.0.1 or localhost with the server's port: a page of
//!   another site that rebinds its DNS name to 127.0.0.1 sends its own name and is refused.
//! - The address printed at start carries a one-time token; the first request with it gets
//!   the session cookie (HttpOnly, SameSite=Strict) and is sent on to the page without the
//!   token. The token is spent then: a copy of the address left in a log or a history is of
//!   no use. Every other request without the cookie is refused, so permalinks work in the
//!   browser that opened the page. The cookie is named after the port: browsers share
//!   cookies between the ports of a host, and two servers must not overwrite each other's.
//! - SameSite counts every port of 127.0.0.1 as one site, so a page served on another port
//!   could make the browser send the cookie. A request a browser marks as coming from
//!   another origin (`Sec-Fetch-Site`, `Origin`) is refused.
//! - Every answer carries a Content-Security-Policy: scripts and styles from the server
//!   only, no `eval`, no inline script or style, no frames, connections to the server only.

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::{StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use parking_lot::Mutex;

use super::AppState;

/// The prefix of the session cookie's name (the port follows).
const COOKIE_PREFIX: &str = "tsgraph_ui_";

/// The page's Content-Security-Policy. Cytoscape.js sets the size and position of the
/// elements it draws in through the CSSOM (`element.style`), which CSP does not govern;
/// it needs no inline style and no `unsafe-eval`.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; \
base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The secrets of one server: the token printed once and the cookie it is exchanged for.
pub(crate) struct Session {
    port: u16,
    /// The cookie's name: [`COOKIE_PREFIX`] and the port.
    cookie_name: String,
    /// None once spent.
    token: Mutex<Option<String>>,
    cookie: String,
}

impl Session {
    /// A session for a server on `port`, with fresh secrets from the system's random source.
    pub(crate) fn new(port: u16) -> std::io::Result<Session> {
        Ok(Session {
            port,
            cookie_name: format!("{COOKIE_PREFIX}{port}"),
            token: Mutex::new(Some(secret()?)),
            cookie: secret()?,
        })
    }

    /// The address to print: the page, with the one-time token.
    pub(crate) fn entry_url(&self) -> String {
        let token = self.token.lock().clone().unwrap_or_default();
        format!("http://127.0.0.1:{}/?token={token}", self.port)
    }

    /// Whether `host` (a `Host` header) names this server on the loopback interface.
    fn host_allowed(&self, host: &str) -> bool {
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        port.parse::<u16>() == Ok(self.port) && matches!(name, "127.0.0.1" | "localhost")
    }

    /// Whether a browser says the request comes from another origin: a page of another site
    /// or of another port of this host. A request no browser marked (a typed address, a
    /// program) passes; the cookie still decides.
    fn cross_origin(&self, headers: &HeaderMap) -> bool {
        let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
        if site.is_some_and(|site| !matches!(site, "same-origin" | "none")) {
            return true;
        }
        match headers.get(header::ORIGIN).map(|v| v.to_str()) {
            None => false,
            Some(Ok(origin)) => origin
                .strip_prefix("http://")
                .is_none_or(|host| !self.host_allowed(host)),
            Some(Err(_)) => true,
        }
    }

    /// Spends the token: true the first time `token` is the one printed.
    fn exchange(&self, token: &str) -> bool {
        let mut kept = self.token.lock();
        let matches = kept
            .as_deref()
            .is_some_and(|expected| same_secret(expected, token));
        if matches {
            *kept = None;
        }
        matches
    }

    /// Whether the request's cookies hold the session cookie.
    fn admits(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == self.cookie_name && same_secret(&self.cookie, value))
    }

    fn set_cookie(&self) -> String {
        format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            self.cookie_name, self.cookie
        )
    }
}

/// 32 hex digits from the system's random source.
fn secret() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two secrets in time that does not depend on where they first differ.
fn same_secret(expected: &str, given: &str) -> bool {
    expected.len() == given.len()
        && expected
            .bytes()
            .zip(given.bytes())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

/// The token of a `?token=…` query, if any.
fn token_of(uri: &Uri) -> Option<&str> {
    uri.query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
}

/// The guard in front of every route.
pub(crate) async fn check(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let session = &state.session;
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !session.host_allowed(host) {
        let message = format!(
            "refused: the Host header must be 127.0.0.1:{} or localhost:{}",
            session.port, session.port
        );
        return secured(refusal(StatusCode::FORBIDDEN, &message));
    }
    if session.cross_origin(request.headers()) {
        let message = "refused: a request from another origin";
        return secured(refusal(StatusCode::FORBIDDEN, message));
    }
    if let Some(token) = token_of(request.uri()) {
        if request.uri().path() == "/" && session.exchange(token) {
            let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
            if let Ok(cookie) = HeaderValue::from_str(&session.set_cookie()) {
                response.headers_mut().insert(header::SET_COOKIE, cookie);
            }
            return secured(response);
        }
        if !session.admits(request.headers()) {
            let message = "refused: this token is not valid (it works once); \
                           start `tsgraph ui` again for a new address";
            return secured(refusal(StatusCode::FORBIDDEN, message));
        }
    }
    if !session.admits(request.headers()) {
        let message = "refused: no session; open the address `tsgraph ui` printed";
        return secured(refusal(StatusCode::UNAUTHORIZED, message));
    }
    secured(next.run(request).await)
}

/// A refusal's answer: a JSON error, as the API's.
fn refusal(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({"error": {"code": "refused", "message": message}});
    (status, axum::Json(body)).into_response()
}

/// Adds the headers every answer carries.
fn secured(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let fixed: [(HeaderName, &'static str); 5] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new(4321).expect("random source")
    }

    #[test]
    fn only_the_loopback_names_with_the_port_are_hosts() {
        let session = session();
        assert!(session.host_allowed("127.0.0.1:4321"));
        assert!(session.host_allowed("localhost:4321"));
        assert!(!session.host_allowed("127.0.0.1:4322"));
        assert!(!session.host_allowed("evil.example:4321"));
        assert!(!session.host_allowed("127.0.0.1"));
        assert!(!session.host_allowed(""));
    }

    #[test]
    fn the_token_is_spent_by_its_first_use() {
        let session = session();
        let url = session.entry_url();
        let token = url.rsplit_once("token=").expect("token").1.to_owned();
        assert_eq!(token.len(), 32);
        assert!(!session.exchange("0".repeat(32).as_str()));
        assert!(session.exchange(&token));
        assert!(!session.exchange(&token));
    }

    #[test]
    fn only_the_session_cookie_admits() {
        let session = session();
        let mut headers = HeaderMap::new();
        assert!(!session.admits(&headers));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("other=1; tsgraph_ui_4321=nope"),
        );
        assert!(!session.admits(&headers));
        let cookie = session.set_cookie();
        let pair = cookie.split(';').next().expect("pair").to_owned();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("other=1; {pair}")).expect("header"),
        );
        assert!(session.admits(&headers));
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    }

    #[test]
    fn two_sessions_share_no_secret() {
        let (a, b) = (session(), session());
        assert_ne!(a.cookie, b.cookie);
        assert_ne!(a.entry_url(), b.entry_url());
        let other_port = Session::new(4322).expect("random source");
        assert_ne!(a.cookie_name, other_port.cookie_name);
    }

    #[test]
    fn requests_a_browser_marks_as_from_elsewhere_are_told_apart() {
        let session = session();
        let mut headers = HeaderMap::new();
        assert!(!session.cross_origin(&headers), "a program's request");
        for (site, origin, cross) in [
            ("same-origin", Some("http://127.0.0.1:4321"), false),
            ("none", None, false),
            ("same-site", Some("http://127.0.0.1:8080"), true),
            ("cross-site", Some("https://evil.example"), true),
            ("same-origin", Some("http://127.0.0.1:8080"), true),
            ("same-origin", Some("null"), true),
        ] {
            headers.clear();
            headers.insert("sec-fetch-site", HeaderValue::from_static(site));
            if let Some(origin) = origin {
                headers.insert(header::ORIGIN, HeaderValue::from_static(origin));
            }
            assert_eq!(session.cross_origin(&headers), cross, "{site} {origin:?}");
        }
    }
}
