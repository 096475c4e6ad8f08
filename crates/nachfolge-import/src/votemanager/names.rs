//! Names as the presentation shows them: "Vorname Nachname" with academic titles in front (the candidates of
//! the result table) and "Nachname, Vorname" with titles in front (the table of elected candidates). The
//! snapshot has a given and a family name and the akademischer Grad (`academic_degree`, "Dr.") apart.

/// A name split into given name, family name and academic degree; `certain`: the split is the file's own
/// (a comma), or the name has just two words besides the degree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub given: String,
    pub family: String,
    pub degree: Option<String>,
    pub certain: bool,
}

fn degree(words: &[&str]) -> Option<String> {
    (!words.is_empty()).then(|| words.join(" "))
}

fn is_title(word: &str) -> bool {
    word.ends_with('.') || word.contains(".-") || matches!(word, "Dr" | "Prof")
}

/// Split off the leading titles: (titles, rest).
fn titles(words: &[&str]) -> usize {
    words.iter().take_while(|w| is_title(w)).count().min(words.len().saturating_sub(1))
}

/// "Vorname Nachname": the family name is the last word, or starts at the first word after the first that
/// begins with a lower-case letter ("van Ellen", "große Osterhues").
pub fn split_display(name: &str) -> Split {
    let words: Vec<&str> = name.split_whitespace().collect();
    let t = titles(&words);
    let rest = &words[t..];
    if rest.len() <= 1 {
        return Split {
            given: String::new(),
            family: rest.join(" "),
            degree: degree(&words[..t]),
            certain: rest.len() == 1,
        };
    }
    let particle = rest.iter().skip(1).position(|w| w.chars().next().is_some_and(char::is_lowercase)).map(|p| p + 1);
    let cut = particle.unwrap_or(rest.len() - 1);
    Split {
        given: rest[..cut].join(" "),
        family: rest[cut..].join(" "),
        degree: degree(&words[..t]),
        certain: rest.len() == 2,
    }
}

/// "Nachname, Vorname" with titles in front of the family name ("Dr. Giesers, Benjamin").
pub fn split_elected(name: &str) -> Split {
    let Some((family, given)) = name.split_once(',') else { return split_display(name) };
    let words: Vec<&str> = family.split_whitespace().collect();
    let t = titles(&words);
    let given: Vec<&str> = given.split_whitespace().collect();
    Split { given: given.join(" "), family: words[t..].join(" "), degree: degree(&words[..t]), certain: true }
}

impl Split {
    /// The name as the result table shows it ("Dr. Julia Gockel"), for comparing: words joined by one space,
    /// lower case.
    pub fn key(&self) -> String {
        display_key(&format!("{} {} {}", self.degree.as_deref().unwrap_or(""), self.given, self.family))
    }
}

/// A name for comparing: words joined by one space, lower case.
pub fn display_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(degree: &str, given: &str, family: &str, certain: bool) -> Split {
        Split {
            given: given.into(),
            family: family.into(),
            degree: (!degree.is_empty()).then(|| degree.into()),
            certain,
        }
    }

    #[test]
    fn display_names_split_at_the_last_word_or_a_particle() {
        assert_eq!(split_display("Susanne Menge"), s("", "Susanne", "Menge", true));
        assert_eq!(split_display("Dr. Julia Gockel"), s("Dr.", "Julia", "Gockel", true));
        assert_eq!(split_display("Dr.Dr. Roland Zielke"), s("Dr.Dr.", "Roland", "Zielke", true));
        assert_eq!(split_display("Prof. Dr. Eva Muster"), s("Prof. Dr.", "Eva", "Muster", true));
        assert_eq!(split_display("Anna Sarah Krämer"), s("", "Anna Sarah", "Krämer", false));
        assert_eq!(split_display("Thorsten van Ellen"), s("", "Thorsten", "van Ellen", false));
        assert_eq!(split_display("Siri große Osterhues"), s("", "Siri", "große Osterhues", false));
        assert_eq!(split_display("Dr. Wedigo von Wedel"), s("Dr.", "Wedigo", "von Wedel", false));
        assert_eq!(split_display("Cher"), s("", "", "Cher", true));
    }

    #[test]
    fn elected_names_split_at_the_comma_with_titles_to_the_given_name() {
        assert_eq!(split_elected("Menge, Susanne"), s("", "Susanne", "Menge", true));
        assert_eq!(split_elected("Dr. Giesers, Benjamin"), s("Dr.", "Benjamin", "Giesers", true));
        assert_eq!(split_elected("Paul, Andreas Michael"), s("", "Andreas Michael", "Paul", true));
        assert_eq!(split_elected("Dr. Giesers, Benjamin").key(), split_display("Dr. Benjamin  Giesers").key());
    }
}
