//! The contacts CSV merged into imported snapshots (Oldenburg's, with Wahlbereiche, and Darmstadt's, without
//! names), and its errors.

mod common;
use common::{facts, files};

use nachfolge_core::model::{FormOfAddress, Land, SeatVia, Snapshot};
use nachfolge_import::{import_with_contacts, ImportError, InputFile, Options, PLACEHOLDER_NAME};

fn oldenburg(contacts: &str) -> Result<Snapshot, ImportError> {
    let c = InputFile { name: "kontakte.csv".into(), bytes: contacts.as_bytes().to_vec() };
    import_with_contacts(
        &files("ni-oldenburg-2026-ratswahl-votemanager"),
        None,
        &facts(Land::Ni, None),
        &Options::default(),
        Some(&c),
    )
    .map(|i| i.snapshot)
}

fn cand<'a>(s: &'a Snapshot, id: &str) -> &'a nachfolge_core::model::Candidate {
    s.lists.iter().flat_map(|l| &l.candidates).find(|c| c.id == id).unwrap_or_else(|| panic!("no candidate {id}"))
}

#[test]
fn contacts_by_list_id_and_position_or_by_name() {
    let s = oldenburg(
        "liste;platz;name;e-mail;anschrift;anrede;titel\n\
         L1-WB1;7;;a.k@example.org;\"Musterweg 5\n26122 Oldenburg\";Frau;\n\
         GRÜNE;;Susanne Menge;;Markt 1, 26122 Oldenburg;frau;\n\
         BÜNDNIS 90/DIE GRÜNEN (Wahlbereich 6);2;Dr. Benjamin Giesers;;;Herr;Prof. Dr.\n",
    )
    .expect("merges");
    let c = cand(&s, "L1-WB1-07");
    assert_eq!(c.email.as_deref(), Some("a.k@example.org"));
    assert_eq!(c.postal_address.as_deref(), Some("Musterweg 5, 26122 Oldenburg"), "lines joined with commas");
    assert_eq!(c.form_of_address, Some(FormOfAddress::Frau));
    let c = cand(&s, "L1-WB1-01");
    assert_eq!(
        (c.postal_address.as_deref(), c.form_of_address),
        (Some("Markt 1, 26122 Oldenburg"), Some(FormOfAddress::Frau))
    );
    let c = cand(&s, "L1-WB6-02");
    assert_eq!((c.form_of_address, c.academic_degree.as_deref()), (Some(FormOfAddress::Herr), Some("Prof. Dr.")));
}

#[test]
fn contacts_errors_name_line_and_column() {
    let e = oldenburg("liste;platz\nGRÜNE;1\n").expect_err("position 1 in six Wahlbereiche");
    assert_eq!((e.file.as_deref(), e.line, e.column), (Some("kontakte.csv"), Some(2), Some(1)));
    assert!(e.message.contains("several candidates (L1-WB1-01, L1-WB2-01"), "{e}");
    let e = oldenburg("liste;platz\nL1-WB1;1\nL1-WB1;99\n").expect_err("nobody");
    assert_eq!((e.line, e.message.as_str()), (Some(3), "the row matches no candidate"));
    let e = oldenburg("liste;platz\nL1-WB1;1\nBÜNDNIS 90/DIE GRÜNEN (Wahlbereich 1);1\n").expect_err("twice");
    assert!(e.message.contains("already set by line 2"), "{e}");
    let e = oldenburg("liste;platz;telefon\n").expect_err("unknown column");
    assert_eq!(e.line, Some(1));
    assert!(e.message.contains("unknown columns `telefon`"), "{e}");
    let e = oldenburg("liste;platz;anrede\nL1-WB1;1;Divers\n").expect_err("salutation");
    assert_eq!((e.line, e.column), (Some(2), Some(3)));
    let e = oldenburg("liste;platz;e-mail\nL1-WB1;1;keine\n").expect_err("e-mail");
    assert!(e.message.contains("not an e-mail address"), "{e}");
    let e = oldenburg("liste;platz\nKeine Liste;1\n").expect_err("list");
    assert!(e.message.contains("no list `Keine Liste`"), "{e}");
    let e = oldenburg("liste;platz;vorname\nL1-WB1;1;Eva\n").expect_err("half a name");
    assert!(e.message.contains("set together"), "{e}");
    let e = oldenburg("platz\n1\n").expect_err("no list column");
    assert!(e.message.contains("no column `liste`"), "{e}");
}

#[test]
fn contacts_add_names_and_seats_the_files_lack() {
    let c = InputFile {
        name: "kontakte.csv".into(),
        bytes: "liste;platz;vorname;nachname;sitz\nL1;1;Erika;Muster;liste\nL1;2;Max;Muster;\n".as_bytes().to_vec(),
    };
    let i = import_with_contacts(
        &files("he-darmstadt-2021-stadtverordnetenwahl-votemanager"),
        None,
        &facts(Land::He, Some(71)),
        &Options::default(),
        Some(&c),
    )
    .expect("merges");
    let s = &i.snapshot;
    assert_eq!(cand(s, "L1-01").full_name(), "Erika Muster");
    assert_eq!(cand(s, "L1-01").seat.as_ref().map(|s| s.via), Some(SeatVia::List));
    assert_eq!(cand(s, "L1-02").full_name(), "Max Muster");
    assert_eq!(cand(s, "L1-03").given_name, PLACEHOLDER_NAME);
    assert!(i
        .report
        .points
        .iter()
        .any(|p| p.message == "483 of 485 candidates have no name (`[Name fehlt]`): add them"));
    assert!(i.report.read.iter().any(|r| r.en.starts_with("contacts (kontakte.csv): 2 row(s);")));
    // a seat the Land does not know is refused by the validation, naming the field
    let c = InputFile { name: "k.csv".into(), bytes: b"liste;platz;sitz\nL1;1;personenwahl\n".to_vec() };
    let e = import_with_contacts(
        &files("he-darmstadt-2021-stadtverordnetenwahl-votemanager"),
        None,
        &facts(Land::He, Some(71)),
        &Options::default(),
        Some(&c),
    )
    .expect_err("personal_vote in Hessen");
    assert!(e.message.contains("lists[0].candidates[0].seat.via"), "{e}");
}
