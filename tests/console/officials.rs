//! Issue 26, point 11: what the officials see. Person fields offer the people by name, no choice that
//! matters is preselected, „Angaben ändern“ keeps what was entered, a deep link survives the sign-in
//! (same-origin paths only), and refusals are German pages.

use crate::flow::{confirm_fields, preview, signed_in};
use crate::support::app::App;
use crate::{add_user, client, nrw, register, Answer, PASSWORD};

const BODY: &str = "musterstadt-rat";
const VACANCY: &str = "/raete/musterstadt-rat/ausscheiden";

/// The `<select id="{id}" …>…</select>` of the page.
fn select<'a>(page: &'a Answer, id: &str) -> &'a str {
    let start = page.body.find(&format!("<select id=\"{id}\"")).unwrap_or_else(|| panic!("select {id}: {}", page.body));
    let rest = &page.body[start..];
    &rest[..rest.find("</select>").unwrap_or(rest.len())]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn person_fields_offer_names_and_no_choice_that_matters_is_preselected() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;

    // the vacancy: whom and why must be chosen; the first option is the empty „Bitte wählen“, required
    let form = browser.get(VACANCY).await;
    assert_eq!(form.status, 200, "{}", form.body);
    for id in ["member", "departure"] {
        let s = select(&form, id);
        assert!(s.contains("required") && s.contains("<option value=\"\">Bitte wählen</option>"), "{s}");
        assert!(!s.contains(" selected"), "nothing preselected in {id}: {s}");
    }
    assert!(select(&form, "departure").contains(">Tod</option>"), "{}", select(&form, "departure"));
    // members by name and list, not by id
    assert!(select(&form, "member").contains("<option value=\"L1-01\">Anna Albers ("), "{}", select(&form, "member"));
    assert!(!select(&form, "member").contains("L1-01)"), "{}", select(&form, "member"));

    // a fact about a person: the person by name (the id only as the value), the fact to choose
    let fact = browser.get("/raete/musterstadt-rat/tatsache").await;
    assert_eq!(fact.status, 200, "{}", fact.body);
    let person = select(&fact, "candidate");
    assert!(person.contains("<option value=\"\">Bitte wählen</option>"), "{person}");
    assert!(person.contains("<option value=\"L1-06\">Felix Fuchs ("), "{person}");
    assert!(!fact.body.contains("name=\"candidate\" type=\"text\""), "no free-text id field: {}", fact.body);
    assert!(!select(&fact, "fact").contains(" selected"), "{}", select(&fact, "fact"));

    // a case: service preselects the successor the case names, but not the manner of service; a
    // declaration's kind (acceptance or refusal) is never preselected
    let fields = [("member", "L1-01"), ("departure", "died"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, VACANCY, &fields).await;
    let done = crate::flow::confirm(&mut browser, VACANCY, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let service = browser.get(&format!("/raete/{BODY}/faelle/{case}/zustellung")).await;
    assert_eq!(service.status, 200, "{}", service.body);
    assert!(
        select(&service, "candidate").contains("<option value=\"L1-06\" selected>Felix Fuchs ("),
        "{}",
        service.body
    );
    assert!(!select(&service, "method").contains(" selected"), "{}", select(&service, "method"));
    let declaration = browser.get(&format!("/raete/{BODY}/faelle/{case}/erklaerung")).await;
    assert_eq!(declaration.status, 200, "{}", declaration.body);
    let kind = select(&declaration, "kind");
    assert!(kind.contains("<option value=\"\">Bitte wählen</option>") && !kind.contains(" selected"), "{kind}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn angaben_aendern_returns_to_the_form_with_what_was_entered() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let fields = [("member", "L1-02"), ("departure", "resigned"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, VACANCY, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    // „Angaben ändern“ is a form of its own that sends the entries back (a link would lose them)
    let at = shown.body.find("<form class=\"aendern\"").expect("the form „Angaben ändern“");
    let edit = &shown.body[at..at + shown.body[at..].find("</form>").expect("its end")];
    assert!(edit.contains("action=\"/raete/musterstadt-rat/ausscheiden/vorschau\"") && edit.contains("Angaben ändern"));
    let page =
        Answer { status: 200, headers: Vec::new(), body: edit.replacen("class=\"aendern\"", "class=\"formular\"", 1) };
    let sent = confirm_fields(&page);
    assert!(sent.iter().any(|(k, v)| k == "aendern" && v == "1"), "{sent:?}");
    assert!(!sent.iter().any(|(k, _)| k == "message_id"), "{sent:?}");
    let f: Vec<(&str, &str)> = sent.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let again = browser.post(&format!("{VACANCY}/vorschau"), &f).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert!(again.body.contains("Schritt 1 von 3"), "the form again: {}", again.body);
    assert!(select(&again, "member").contains("<option value=\"L1-02\" selected>"), "{}", select(&again, "member"));
    assert!(select(&again, "departure").contains("<option value=\"resigned\" selected>"), "{}", again.body);
    assert!(again.body.contains("value=\"2026-05-04T10:00\""), "{}", again.body);
    // nothing was recorded
    assert!(crate::flow::audit(&app, BODY, "vacancy.reported").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_link_survives_the_sign_in_and_leads_nowhere_else() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user(&app, "wahlleitung", "wahlleiter", &[BODY]).await;
    let mut browser = client(&app);
    let wanted = "/raete/musterstadt-rat/tatsache?person=L1-06";
    let first = browser.get(wanted).await;
    assert_eq!(first.status, 303);
    let location = first.header("location").expect("to the sign-in").to_owned();
    assert_eq!(location, "/anmelden?weiter=%2Fraete%2Fmusterstadt-rat%2Ftatsache%3Fperson%3DL1-06");
    let form = browser.get(&location).await;
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("name=\"weiter\""), "{}", form.body);
    let csrf = form.csrf().expect("token");
    let back = crate::flow::confirm_fields(&form).into_iter().find(|(k, _)| k == "weiter").expect("weiter").1;
    assert_eq!(back, wanted);
    // a wrong password keeps it
    let wrong = browser
        .post(
            "/anmelden",
            &[("login", "wahlleitung"), ("password", "falsch falsch!"), ("csrf", &csrf), ("weiter", &back)],
        )
        .await;
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("name=\"weiter\""), "{}", wrong.body);
    let ok = browser
        .post("/anmelden", &[("login", "wahlleitung"), ("password", PASSWORD), ("csrf", &csrf), ("weiter", &back)])
        .await;
    assert_eq!((ok.status, ok.header("location")), (303, Some(wanted)), "{}", ok.body);
    let page = browser.get(wanted).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(select(&page, "candidate").contains("<option value=\"L1-06\" selected>"), "{}", page.body);

    // only a path of the console itself: anything else leads to the councils
    for evil in [
        "//evil.example/raete",
        "https://evil.example/",
        "/\\evil.example",
        "javascript:alert(1)",
        "raete",
        "/anmelden",
    ] {
        let mut other = client(&app);
        let form = other.get("/anmelden").await;
        let csrf = form.csrf().expect("token");
        let ok = other
            .post("/anmelden", &[("login", "wahlleitung"), ("password", PASSWORD), ("csrf", &csrf), ("weiter", evil)])
            .await;
        assert_eq!((ok.status, ok.header("location")), (303, Some("/raete")), "{evil}");
        let shown = client(&app).get(&format!("/anmelden?weiter={}", urlencode(evil))).await;
        assert!(!shown.body.contains("name=\"weiter\""), "{evil}: {}", shown.body);
    }
    // a POST or a JSON read is not remembered
    let json = client(&app).get("/bodies/musterstadt-rat").await;
    assert_eq!(json.status, 401);
}

fn urlencode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
