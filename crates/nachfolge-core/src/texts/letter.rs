//! The words around the formal letter to the successor (for Zustellung) and around an announcement printed
//! as a document: the letterhead, the return address, the recipient's address, the information block with the
//! Aktenzeichen and the date, the subject, the page numbers (DIN 5008). The letter's own text is the
//! successor's e-mail text (`mail/<template>.txt`, rendered with `letter: true`), so the request, the period
//! rule and the Hinweise are written once, in the templates; the shell lays both out as a PDF
//! (`src/letter/`, docs/console.md "Documents").

use chrono::{DateTime, Utc};

use crate::calendar::{german_date, local_date};
use crate::model::Body;

use super::MailRequest;

/// What the letter says around its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetterFrame {
    /// The letterhead: the council, then the office that writes.
    pub letterhead: Vec<String>,
    /// The return address (Rücksendeangabe) in one line, above the recipient's address.
    pub return_address: String,
    /// The recipient's name and postal address, a line each (the address is split at its commas).
    pub recipient: Vec<String>,
    /// The information block: label and value.
    pub info: Vec<(&'static str, String)>,
    /// The subject (Betreff): the e-mail's subject.
    pub subject: String,
}

/// The frame of the letter `mail` (made by [`crate::procedure::Council::determination_letter`]) of `body`,
/// dated `now`. `None` if the recipient is not a candidate of `body`.
pub fn letter_frame(body: &Body, mail: &MailRequest, now: DateTime<Utc>) -> Option<LetterFrame> {
    let info = body.info();
    let officer = &info.returning_officer;
    let person = body.candidate(&mail.candidate)?;
    // DIN 5008: „Frau“ / „Herrn“ and the academic degree before the name (docs/legal.md, "Form of address")
    let mut recipient = vec![super::addressee(person)];
    recipient.extend(address_lines(person.postal_address.as_deref()));
    let mut sender = vec![officer.name.clone()];
    sender.extend(address_lines(officer.address.as_deref()));
    Some(LetterFrame {
        letterhead: vec![info.name.clone(), info.officer_title().to_owned()],
        return_address: sender.join(" · "),
        recipient,
        info: vec![
            ("Aktenzeichen", format!("{} (Runde {})", mail.case, mail.round)),
            ("Auskunft", officer.name.clone()),
            ("E-Mail", officer.email.clone()),
            ("Datum", german_date(local_date(now))),
        ],
        subject: mail.subject.clone(),
    })
}

/// The page number of a document of more than one page (DIN 5008): „Seite 1 von 2“.
pub fn page_number(page: usize, pages: usize) -> String {
    format!("Seite {page} von {pages}")
}

/// The lines of a postal address written in one line with commas („Rathausplatz 1, 12345 Musterstadt“).
fn address_lines(address: Option<&str>) -> Vec<String> {
    address.into_iter().flat_map(|a| a.split(',')).map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_in_one_line_becomes_its_lines() {
        assert_eq!(address_lines(Some("Musterweg 5, 12345 Musterstadt")), ["Musterweg 5", "12345 Musterstadt"]);
        assert_eq!(address_lines(Some(" , Postfach 1 ,")), ["Postfach 1"]);
        assert!(address_lines(None).is_empty());
        assert_eq!(page_number(1, 2), "Seite 1 von 2");
    }
}
