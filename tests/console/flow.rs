//! The three steps of an action as a browser goes through them: the form, the preview (whose confirm form
//! is read back from the page, hidden fields and all), the confirmation; and the audit log they leave.

use serde_json::Value;

use crate::support::app::App;
use crate::{add_user, client, Answer, Client, PASSWORD};

/// A signed-in browser of a new account with `role` for `body`.
pub async fn signed_in(app: &App, body: &str, login: &str, role: &str) -> Client {
    add_user(app, login, role, &[body]).await;
    let mut browser = client(app);
    assert_eq!(browser.sign_in(login, PASSWORD).await.status, 303);
    browser
}

/// The text of an HTML attribute value as the page escaped it.
fn unescape(s: &str) -> String {
    s.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The hidden fields of the page's last form (the confirm form of a preview).
pub fn confirm_fields(page: &Answer) -> Vec<(String, String)> {
    let Some(form) = page.body.rfind("<form class=\"formular\"") else { return Vec::new() };
    let form = &page.body[form..page.body[form..].find("</form>").map_or(page.body.len(), |e| form + e)];
    let mut fields = Vec::new();
    let mut rest = form;
    while let Some(at) = rest.find("<input type=\"hidden\" name=\"") {
        rest = &rest[at + "<input type=\"hidden\" name=\"".len()..];
        let Some(end) = rest.find('"') else { break };
        let name = rest[..end].to_owned();
        let Some(v) = rest.find("value=\"") else { break };
        let value = &rest[v + "value=\"".len()..];
        let Some(vend) = value.find('"') else { break };
        fields.push((name, unescape(&value[..vend])));
    }
    fields
}

/// The form at `path` (it must be offered: 200), then its preview with `fields`.
pub async fn preview(browser: &mut Client, path: &str, fields: &[(&str, &str)]) -> Answer {
    let form = browser.get(path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let csrf = form.csrf().expect("the form has a token");
    let mut f: Vec<(&str, &str)> = fields.to_vec();
    f.push(("csrf", csrf.as_str()));
    browser.post(&format!("{path}/vorschau"), &f).await
}

/// The confirmation as the preview's confirm form sends it.
pub async fn confirm(browser: &mut Client, path: &str, shown: &Answer) -> Answer {
    let fields = confirm_fields(shown);
    assert!(fields.iter().any(|(k, _)| k == "message_id"), "a confirm form: {}", shown.body);
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    browser.post(path, &f).await
}

/// The audit entries of the commands of type `ty` for `body`.
pub async fn audit(app: &App, body: &str, ty: &str) -> Vec<Value> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT payload::text FROM audit_log WHERE body_id = $1 AND kind = 'command' AND type = $2 ORDER BY seq",
    )
    .bind(body)
    .bind(ty)
    .fetch_all(&app.db().await)
    .await
    .expect("audit log");
    rows.iter().map(|r| serde_json::from_str(r).expect("json")).collect()
}

/// A local time for a `datetime-local` field: the app's clock in Europe/Berlin.
pub fn local_now(app: &App) -> String {
    nachfolge::calendar::berlin(app.now()).format("%Y-%m-%dT%H:%M").to_string()
}

/// A viewer of `body` gets 404 for the form, the preview and the confirmation at `path`.
pub async fn refused_to_viewer(app: &App, body: &str, path: &str, fields: &[(&str, &str)]) {
    let mut viewer = signed_in(app, body, "leser", "viewer").await;
    assert_eq!(viewer.get(path).await.status, 404);
    let token = viewer.get(&format!("/raete/{body}")).await.csrf().expect("the sign-out form's token");
    let mut f: Vec<(&str, &str)> = fields.to_vec();
    f.push(("csrf", token.as_str()));
    assert_eq!(viewer.post(&format!("{path}/vorschau"), &f).await.status, 404);
    f.push(("message_id", "7d9f8a2e-0000-4000-8000-0000000000aa"));
    assert_eq!(viewer.post(path, &f).await.status, 404);
}

/// The operations listener's `/metrics` text.
pub async fn metrics(app: &App) -> String {
    let mut ops = Client::new(app.worker.as_ref().and_then(|w| w.http_addr).expect("the operations listener"));
    ops.get("/metrics").await.body
}
