//! Roles per council: a viewer or Wahlleiter sees only the councils granted; an admin sees all.

use crate::support::app::{example, App};
use crate::{add_user, add_user_cli, client, nrw, register, PASSWORD};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_cannot_see_another_council_and_an_admin_sees_every_council() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    register(&app, example("he-election.json")).await;
    add_user(&app, "leser-he", "viewer", &["beispielstadt-stvv"]).await;
    add_user_cli(&app, "betrieb", "admin", &[]).await;

    let mut viewer = client(&app);
    assert_eq!(viewer.sign_in("leser-he", PASSWORD).await.status, 303);
    let list = viewer.get("/raete").await;
    assert!(list.body.contains("Stadtverordnetenversammlung Beispielstadt"), "{}", list.body);
    assert!(list.body.contains("Lesezugriff") && list.body.contains("Hessen"), "{}", list.body);
    assert!(!list.body.contains("Musterstadt"), "{}", list.body);
    assert_eq!(viewer.get("/raete/beispielstadt-stvv").await.status, 200);
    // the other council is answered as if it did not exist, on every path
    let other = viewer.get("/raete/musterstadt-rat").await;
    assert_eq!(other.status, 404);
    assert!(!other.body.contains("Musterstadt"), "{}", other.body);
    assert_eq!(viewer.get("/raete/musterstadt-rat/faelle/musterstadt-rat-1").await.status, 404);
    assert_eq!(viewer.get("/bodies/musterstadt-rat").await.status, 404);
    assert_eq!(viewer.get("/bodies/musterstadt-rat/succession-order").await.status, 404);
    assert_eq!(viewer.get("/bodies/beispielstadt-stvv").await.status, 200);

    let mut admin = client(&app);
    assert_eq!(admin.sign_in("betrieb", PASSWORD).await.status, 303);
    let list = admin.get("/raete").await;
    assert!(list.body.contains("Rat der Stadt Musterstadt"), "{}", list.body);
    assert!(list.body.contains("Stadtverordnetenversammlung Beispielstadt"), "{}", list.body);
    assert_eq!(admin.get("/raete/musterstadt-rat").await.status, 200);
    assert_eq!(admin.get("/bodies/beispielstadt-stvv").await.status, 200);
}
