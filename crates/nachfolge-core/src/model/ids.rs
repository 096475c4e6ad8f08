//! The ids that travel together — in messages, commands, timers, cases and the store — each its own type, so
//! that a case id cannot be passed where a candidate id belongs. On the wire they are plain strings
//! (`#[serde(transparent)]`, the same JSON Schema). Inside one body's snapshot the rules work with the
//! candidate ids as written there (`Candidate::id`): no other kind of id is in scope.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                $name(id.into())
            }
            pub fn as_str(&self) -> &str {
                &self.0
            }
            pub fn into_string(self) -> String {
                self.0
            }
        }

        /// A plain string in the JSON Schemas, inlined (the contract is unchanged by the type).
        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                String::json_schema(generator)
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_owned())
            }
        }

        impl From<&String> for $name {
            fn from(s: &String) -> Self {
                $name(s.clone())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

id_type!(
    /// A body's id (`body.id` of its snapshot): the council, Kreistag …
    BodyId
);
id_type!(
    /// A succession case's id, `<body>-<n>`.
    CaseId
);
id_type!(
    /// A candidate's id within his body's snapshot.
    CandidateId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_strings_on_the_wire_and_compare_with_str() {
        let c = CaseId::from("rat-1");
        assert_eq!(serde_json::to_string(&c).ok().as_deref(), Some("\"rat-1\""));
        assert_eq!(serde_json::from_str::<CandidateId>("\"A-01\"").ok(), Some(CandidateId::from("A-01")));
        assert_eq!(c, "rat-1");
        assert_eq!("rat-1", c);
        assert!(c.starts_with("rat"), "derefs to str");
        let mut ids = std::collections::BTreeMap::new();
        ids.insert(BodyId::from("rat"), 1);
        assert_eq!(ids.get("rat"), Some(&1), "looked up by &str");
    }
}
