//! The page's files, built from `cli/ui/src` into `cli/ui/dist` (committed; CI builds them
//! again and checks they match) and embedded in the binary: nothing is read from disk to
//! serve them.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page.
const INDEX: &[u8] = include_bytes!("../../ui/dist/index.html");

/// The page's scripts and styles by name, with their media types.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../ui/dist/assets/app.js"),
    ),
    (
        "icon.svg",
        "image/svg+xml",
        include_bytes!("../../ui/dist/assets/icon.svg"),
    ),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_bytes!("../../ui/dist/assets/app.css"),
    ),
];

/// `GET /`: the page; the view is in the address's fragment, so every permalink loads this.
pub(crate) async fn index() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX).into_response()
}

/// `GET /assets/{name}`.
pub(crate) async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(known, _, _)| *known == name) {
        Some((_, media_type, bytes)) => {
            ([(header::CONTENT_TYPE, *media_type)], *bytes).into_response()
        }
        None => super::api::not_found().await,
    }
}
