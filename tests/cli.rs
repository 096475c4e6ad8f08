//! The `nachfolge` command line itself: what `--help` tells an operator.

use std::process::{Command, Output};

use nachfolge::model::Land;

fn nachfolge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nachfolge"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run nachfolge")
}

/// The German name of each Land served, by its code (`body.land`).
fn name(code: &str) -> &'static str {
    match code {
        "NW" => "Nordrhein-Westfalen",
        "HE" => "Hessen",
        "RP" => "Rheinland-Pfalz",
        "NI" => "Niedersachsen",
        "ST" => "Sachsen-Anhalt",
        "TH" => "Thüringen",
        "SH" => "Schleswig-Holstein",
        "BY" => "Bayern",
        "BW" => "Baden-Württemberg",
        "SN" => "Sachsen",
        "MV" => "Mecklenburg-Vorpommern",
        "BB" => "Brandenburg",
        "SL" => "Saarland",
        other => panic!("Land {other} served but not named in this test"),
    }
}

/// `nachfolge --help` names every Land of `Land::ALL` with its code; `-h` names every Land.
#[test]
fn help_lists_every_land_served() {
    let long = nachfolge(&["--help"]);
    assert!(long.status.success(), "{long:?}");
    let long = String::from_utf8(long.stdout).expect("UTF-8");
    let short = nachfolge(&["-h"]);
    assert!(short.status.success(), "{short:?}");
    let short = String::from_utf8(short.stdout).expect("UTF-8");
    for land in Land::ALL {
        let code = serde_json::to_value(land).expect("serializes");
        let code = code.as_str().expect("a code");
        let entry = format!("{} ({code})", name(code));
        assert!(long.contains(&entry), "--help lacks {entry:?}:\n{long}");
        assert!(short.contains(name(code)), "-h lacks {:?}:\n{short}", name(code));
    }
    // Saarland is served with the Wahlleitung in charge; its Kreistage are not (docs/legal.md, "Saarland")
    assert!(long.contains("§ 44 KWG not verified"), "{long}");
}
