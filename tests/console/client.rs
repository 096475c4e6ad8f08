//! A small HTTP/1.1 client for the console tests: one request per connection (the console closes each),
//! a cookie jar, and the form token read from the page.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An answer: status, headers (names in lower case), body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    pub fn set_cookies(&self) -> Vec<&str> {
        self.headers.iter().filter(|(n, _)| n == "set-cookie").map(|(_, v)| v.as_str()).collect()
    }
    /// The value of the first hidden `csrf` field of the page.
    pub fn csrf(&self) -> Option<String> {
        let at = self.body.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
        let rest = &self.body[at..];
        Some(rest[..rest.find('"')?].to_owned())
    }
}

/// A browser of sorts: keeps the cookies the console sets.
pub struct Client {
    pub addr: SocketAddr,
    pub cookies: BTreeMap<String, String>,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, cookies: BTreeMap::new() }
    }

    pub async fn get(&mut self, path: &str) -> Answer {
        self.request("GET", path, None, &[]).await
    }

    /// POST a form (`application/x-www-form-urlencoded`).
    pub async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Answer {
        self.post_with(path, form, &[]).await
    }

    pub async fn post_with(&mut self, path: &str, form: &[(&str, &str)], headers: &[(&str, &str)]) -> Answer {
        let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
        let mut h = vec![("Content-Type", "application/x-www-form-urlencoded")];
        h.extend_from_slice(headers);
        self.request("POST", path, Some(body), &h).await
    }

    /// Fetch the sign-in form and send it with `login` and `password`.
    pub async fn sign_in(&mut self, login: &str, password: &str) -> Answer {
        let form = self.get("/anmelden").await;
        assert_eq!(form.status, 200, "{}", form.body);
        let csrf = form.csrf().expect("the sign-in form has a token");
        self.post("/anmelden", &[("login", login), ("password", password), ("csrf", csrf.as_str())]).await
    }

    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<String>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: console-test\r\n", self.addr);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            head.push_str(&format!("Cookie: {}\r\n", jar.join("; ")));
        }
        for (n, v) in headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        let body = body.unwrap_or_default();
        if method != "GET" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut stream = tokio::net::TcpStream::connect(self.addr).await.expect("connect to the console");
        stream.write_all(head.as_bytes()).await.expect("write");
        stream.write_all(body.as_bytes()).await.expect("write");
        let mut raw = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
            .await
            .expect("answer in time")
            .expect("read");
        let text = String::from_utf8(raw).expect("utf-8 answer");
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        let mut lines = head.lines();
        let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("status");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':').map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned())))
            .collect();
        let answer = Answer { status, headers, body: body.to_owned() };
        for c in answer.set_cookies() {
            let Some((name, rest)) = c.split_once('=') else { continue };
            let value = rest.split(';').next().unwrap_or_default().to_owned();
            if c.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value);
            }
        }
        answer
    }
}
