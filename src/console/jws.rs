//! The signature of an ID token: a compact JWS (RFC 7515) checked against the provider's key set (JWK,
//! RFC 7517) with ring, which rustls already builds — no JOSE crate (docs/architecture.md "Console").
//!
//! Accepted: RS256 and PS256 (RSA, 2048 to 8192 bits) and ES256 (P-256), the algorithms of RFC 7518 that
//! providers sign ID tokens with (RS256 is the default of OIDC Core 3.1.3.7 item 7). `none`, the HMAC
//! algorithms (a shared secret is no proof of the issuer) and everything else are refused before any key
//! is looked at. Claims are checked by the caller ([`super::oidc`]).

use base64ct::{Base64UrlUnpadded, Encoding};
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};
use serde_json::{Map, Value};

/// Longest token accepted (an ID token is a few kilobytes).
pub const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// Why a token's signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwsError {
    #[error("not a compact JWS with a JSON header and payload")]
    Malformed,
    #[error("signature algorithm {0:?} is not accepted (RS256, PS256, ES256)")]
    Algorithm(String),
    /// No key of the set fits the token's `kid` and algorithm: the provider may have rotated its keys.
    #[error("no key of the provider's key set fits the token")]
    NoKey,
    #[error("the signature does not verify")]
    Signature,
}

/// The accepted algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    Rs256,
    Ps256,
    Es256,
}

impl Alg {
    fn parse(name: &str) -> Option<Alg> {
        match name {
            "RS256" => Some(Alg::Rs256),
            "PS256" => Some(Alg::Ps256),
            "ES256" => Some(Alg::Es256),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Alg::Rs256 => "RS256",
            Alg::Ps256 => "PS256",
            Alg::Es256 => "ES256",
        }
    }
}

/// A public key of the provider's set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwk {
    pub kid: Option<String>,
    /// The algorithm the key is meant for, if the set says.
    pub alg: Option<String>,
    key: PublicKey,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum PublicKey {
    /// Modulus and exponent, big-endian without leading zeros.
    Rsa { n: Vec<u8>, e: Vec<u8> },
    /// An uncompressed P-256 point (`04 ‖ x ‖ y`).
    P256(Vec<u8>),
}

impl Jwk {
    /// Whether this key may check a token of `alg` (and `kid`, when the token names one).
    fn fits(&self, alg: Alg, kid: Option<&str>) -> bool {
        let kind = matches!(
            (&self.key, alg),
            (PublicKey::Rsa { .. }, Alg::Rs256 | Alg::Ps256) | (PublicKey::P256(_), Alg::Es256)
        );
        kind && self.alg.as_deref().is_none_or(|a| a == alg.name())
            && kid.is_none_or(|k| self.kid.as_deref() == Some(k))
    }

    fn verify(&self, alg: Alg, message: &[u8], sig: &[u8]) -> bool {
        match (&self.key, alg) {
            (PublicKey::Rsa { n, e }, Alg::Rs256) => {
                RsaPublicKeyComponents { n, e }.verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, sig).is_ok()
            }
            (PublicKey::Rsa { n, e }, Alg::Ps256) => {
                RsaPublicKeyComponents { n, e }.verify(&signature::RSA_PSS_2048_8192_SHA256, message, sig).is_ok()
            }
            (PublicKey::P256(point), Alg::Es256) => {
                UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, point).verify(message, sig).is_ok()
            }
            _ => false,
        }
    }
}

fn b64(text: &str) -> Option<Vec<u8>> {
    Base64UrlUnpadded::decode_vec(text).ok()
}

fn strip_zeros(bytes: Vec<u8>) -> Vec<u8> {
    let first = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    bytes[first..].to_vec()
}

/// The signing keys of a JWK set (`{"keys": [...]}`); keys for encryption, of other types or curves, or
/// that do not decode are left out.
pub fn parse_jwks(set: &Value) -> Vec<Jwk> {
    let keys = set.get("keys").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    keys.iter().filter_map(parse_jwk).collect()
}

fn parse_jwk(k: &Value) -> Option<Jwk> {
    let text = |name: &str| k.get(name).and_then(Value::as_str);
    if text("use").is_some_and(|u| u != "sig") {
        return None;
    }
    if let Some(ops) = k.get("key_ops").and_then(Value::as_array) {
        if !ops.iter().any(|o| o.as_str() == Some("verify")) {
            return None;
        }
    }
    let key = match text("kty")? {
        "RSA" => PublicKey::Rsa { n: strip_zeros(b64(text("n")?)?), e: strip_zeros(b64(text("e")?)?) },
        "EC" if text("crv")? == "P-256" => {
            let (x, y) = (b64(text("x")?)?, b64(text("y")?)?);
            if x.len() != 32 || y.len() != 32 {
                return None;
            }
            PublicKey::P256([&[4u8][..], &x, &y].concat())
        }
        _ => return None,
    };
    Some(Jwk { kid: text("kid").map(str::to_owned), alg: text("alg").map(str::to_owned), key })
}

/// Checks the signature of a compact JWS against `keys` and returns its payload's claims. The claims
/// themselves (issuer, audience, times, nonce) are not looked at here.
pub fn verify(token: &str, keys: &[Jwk]) -> Result<Map<String, Value>, JwsError> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err(JwsError::Malformed);
    }
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(sig), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(JwsError::Malformed);
    };
    let header: Map<String, Value> =
        b64(header).and_then(|h| serde_json::from_slice(&h).ok()).ok_or(JwsError::Malformed)?;
    let name = header.get("alg").and_then(Value::as_str).ok_or(JwsError::Malformed)?;
    let alg = Alg::parse(name).ok_or_else(|| JwsError::Algorithm(name.to_owned()))?;
    // a header naming extensions the verifier must understand (RFC 7515 § 4.1.11): none are understood
    if header.contains_key("crit") {
        return Err(JwsError::Malformed);
    }
    let sig = b64(sig).ok_or(JwsError::Malformed)?;
    let claims: Map<String, Value> =
        b64(payload).and_then(|p| serde_json::from_slice(&p).ok()).ok_or(JwsError::Malformed)?;
    let kid = header.get("kid").and_then(Value::as_str);
    let candidates: Vec<&Jwk> = keys.iter().filter(|k| k.fits(alg, kid)).collect();
    if candidates.is_empty() {
        return Err(JwsError::NoKey);
    }
    let signed = &token.as_bytes()[..token.rfind('.').unwrap_or(0)];
    if candidates.iter().any(|k| k.verify(alg, signed, &sig)) {
        Ok(claims)
    } else {
        Err(JwsError::Signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::rand::SystemRandom;
    use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
    use serde_json::json;

    /// An RS256 token and its key, made once with node's crypto (`crypto.sign("sha256", …)`, 2048 bits); read
    /// when the test runs, so the release build (the image, which has no tests/) does not compile them in.
    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/oidc").join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn enc(bytes: &[u8]) -> String {
        Base64UrlUnpadded::encode_string(bytes)
    }

    /// A P-256 key pair and its JWK.
    fn es256_key(kid: &str) -> (EcdsaKeyPair, Value) {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).expect("key");
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).expect("pair");
        let point = pair.public_key().as_ref();
        let jwk = json!({"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig",
                         "x": enc(&point[1..33]), "y": enc(&point[33..65])});
        (pair, jwk)
    }

    fn es256_token(pair: &EcdsaKeyPair, header: Value, claims: Value) -> String {
        let signed = format!("{}.{}", enc(header.to_string().as_bytes()), enc(claims.to_string().as_bytes()));
        let sig = pair.sign(&SystemRandom::new(), signed.as_bytes()).expect("sign");
        format!("{signed}.{}", enc(sig.as_ref()))
    }

    #[test]
    fn rs256_verifies_with_its_key_and_not_when_changed() {
        let jwk: Value = serde_json::from_str(&fixture("rs256-jwk.json")).expect("jwk");
        let keys = parse_jwks(&json!({ "keys": [jwk] }));
        assert_eq!(keys.len(), 1);
        let token = fixture("rs256-token.txt");
        let token = token.trim();
        let claims = verify(token, &keys).expect("valid RS256");
        assert_eq!(claims["nonce"], "n");
        // another payload under the same signature
        let mut parts: Vec<&str> = token.split('.').collect();
        let forged = enc(br#"{"iss":"https://idp.example.org","aud":"nachfolge","sub":"admin","nonce":"n"}"#);
        parts[1] = forged.as_str();
        assert_eq!(verify(&parts.join("."), &keys), Err(JwsError::Signature));
        // the same key as PS256 does not verify an RS256 signature
        let mut ps = token.split('.').map(str::to_owned).collect::<Vec<_>>();
        ps[0] = enc(br#"{"alg":"PS256","kid":"k1"}"#);
        let unpinned = parse_jwks(&json!({"keys": [{"kty": "RSA", "kid": "k1", "n": jwk["n"], "e": jwk["e"]}]}));
        assert_eq!(verify(&ps.join("."), &unpinned), Err(JwsError::Signature));
        // a key pinned to RS256 is not used for another algorithm
        assert_eq!(verify(&ps.join("."), &keys), Err(JwsError::NoKey));
    }

    #[test]
    fn es256_verifies_and_the_key_is_chosen_by_kid() {
        let (pair, jwk) = es256_key("ec1");
        let (other, other_jwk) = es256_key("ec2");
        let keys = parse_jwks(&json!({ "keys": [jwk, other_jwk] }));
        let claims = json!({"iss": "https://idp.example.org", "nonce": "abc"});
        let token = es256_token(&pair, json!({"alg": "ES256", "kid": "ec1"}), claims.clone());
        assert_eq!(verify(&token, &keys).expect("valid")["nonce"], "abc");
        // signed by ec2 but naming ec1
        let wrong = es256_token(&other, json!({"alg": "ES256", "kid": "ec1"}), claims.clone());
        assert_eq!(verify(&wrong, &keys), Err(JwsError::Signature));
        // an unknown kid: no key (the caller fetches the set again)
        let unknown = es256_token(&pair, json!({"alg": "ES256", "kid": "ec9"}), claims.clone());
        assert_eq!(verify(&unknown, &keys), Err(JwsError::NoKey));
        // without kid every fitting key is tried
        let no_kid = es256_token(&other, json!({"alg": "ES256"}), claims);
        assert!(verify(&no_kid, &keys).is_ok());
    }

    #[test]
    fn none_hmac_and_malformed_tokens_are_refused() {
        let (pair, jwk) = es256_key("ec1");
        let keys = parse_jwks(&json!({ "keys": [jwk] }));
        let body = enc(br#"{"iss":"https://idp.example.org"}"#);
        let none = format!("{}.{body}.", enc(br#"{"alg":"none"}"#));
        assert_eq!(verify(&none, &keys), Err(JwsError::Algorithm("none".into())));
        let hs = format!("{}.{body}.{}", enc(br#"{"alg":"HS256"}"#), enc(b"secret"));
        assert_eq!(verify(&hs, &keys), Err(JwsError::Algorithm("HS256".into())));
        for bad in ["", "a.b", "a.b.c.d", "!!.e30.e30", &format!("{}.{body}.!!", enc(br#"{"alg":"ES256"}"#))] {
            assert_eq!(verify(bad, &keys), Err(JwsError::Malformed), "{bad}");
        }
        let crit = es256_token(&pair, json!({"alg": "ES256", "crit": ["exp"], "exp": 1}), json!({}));
        assert_eq!(verify(&crit, &keys), Err(JwsError::Malformed));
        assert_eq!(verify(&"a".repeat(MAX_TOKEN_BYTES + 1), &keys), Err(JwsError::Malformed));
    }

    #[test]
    fn key_sets_keep_only_signing_keys() {
        let (_, ec) = es256_key("ec1");
        let set = json!({"keys": [
            ec,
            {"kty": "RSA", "use": "enc", "n": "AQAB", "e": "AQAB"},
            {"kty": "oct", "k": "c2VjcmV0"},
            {"kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"},
            {"kty": "RSA", "n": "not base64!", "e": "AQAB"},
            {"kty": "RSA", "key_ops": ["encrypt"], "n": "AQAB", "e": "AQAB"},
        ]});
        let keys = parse_jwks(&set);
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].kid.as_deref(), Some("ec1"));
        assert!(parse_jwks(&json!({})).is_empty());
    }
}
