//! URLs with their secrets hidden, for logs and `Debug` output.

/// Hides the password of a URL (and query parameters that look like secrets) so it can be logged.
///
/// `amqp://guest:guest@host:5672/%2f` → `amqp://guest:***@host:5672/%2f`;
/// `postgres://host/db?password=x` → `postgres://host/db?password=***`.
pub fn redact_url(url: &str) -> String {
    const MASK: &str = "***";
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };

    // The query and fragment start at the first `?` or `#`; user info ends at the last `@` before.
    let tail_start = rest.find(['?', '#']).unwrap_or(rest.len());
    let (main, tail) = rest.split_at(tail_start);
    let main = match main.rfind('@') {
        Some(at) => {
            let (userinfo, host) = main.split_at(at);
            match userinfo.split_once(':') {
                Some((user, _password)) => format!("{user}:{MASK}{host}"),
                None if scheme.is_none() => format!("{MASK}{host}"),
                None => format!("{userinfo}{host}"),
            }
        }
        None => main.to_owned(),
    };

    let tail = match tail.strip_prefix('?') {
        Some(query_and_fragment) => {
            let (query, fragment) = match query_and_fragment.split_once('#') {
                Some((q, f)) => (q, Some(f)),
                None => (query_and_fragment, None),
            };
            let query = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) if is_secret_param(name) => format!("{name}={MASK}"),
                    _ => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("&");
            match fragment {
                Some(fragment) => format!("?{query}#{fragment}"),
                None => format!("?{query}"),
            }
        }
        None => tail.to_owned(),
    };

    match scheme {
        Some(scheme) => format!("{scheme}://{main}{tail}"),
        None => format!("{main}{tail}"),
    }
}

fn is_secret_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["pass", "secret", "token", "key", "auth", "credential"].iter().any(|needle| name.contains(needle))
}
