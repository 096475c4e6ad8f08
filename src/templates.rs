//! E-mail and announcement texts (German), rendered with minijinja.
//!
//! The default templates live in `config/templates/` and are compiled into the binary; a deployment may
//! override any of them from a directory (`templates.dir`) holding files of the same names.

use std::path::Path;

use minijinja::Environment;
use serde_json::Value;

/// Built-in templates: (name, source).
const BUILTIN: &[(&str, &str)] = &[
    ("mail/nrw_offer.txt", include_str!("../config/templates/mail/nrw_offer.txt")),
    ("mail/nrw_offer.html", include_str!("../config/templates/mail/nrw_offer.html")),
    ("mail/he_determination.txt", include_str!("../config/templates/mail/he_determination.txt")),
    ("mail/he_determination.html", include_str!("../config/templates/mail/he_determination.html")),
    ("mail/he_not_acquired.txt", include_str!("../config/templates/mail/he_not_acquired.txt")),
    ("mail/he_not_acquired.html", include_str!("../config/templates/mail/he_not_acquired.html")),
    // the period notice after service, every Land with a period (texts::period)
    ("mail/period_notice.txt", include_str!("../config/templates/mail/period_notice.txt")),
    ("mail/period_notice.html", include_str!("../config/templates/mail/period_notice.html")),
    ("announcement/nrw_successor.txt", include_str!("../config/templates/announcement/nrw_successor.txt")),
    ("announcement/nrw_vacancy.txt", include_str!("../config/templates/announcement/nrw_vacancy.txt")),
    ("announcement/he_successor.txt", include_str!("../config/templates/announcement/he_successor.txt")),
    ("announcement/he_vacancy.txt", include_str!("../config/templates/announcement/he_vacancy.txt")),
    ("announcement/he_not_acquired.txt", include_str!("../config/templates/announcement/he_not_acquired.txt")),
    ("announcement/nrw_review.txt", include_str!("../config/templates/announcement/nrw_review.txt")),
    ("announcement/nrw_correction.txt", include_str!("../config/templates/announcement/nrw_correction.txt")),
    ("announcement/he_review.txt", include_str!("../config/templates/announcement/he_review.txt")),
    // the declaration model, shared (`law/<land>.txt` holds a Land's sentences; `<land>_*` put them together)
    ("mail/decl_offer.txt", include_str!("../config/templates/mail/decl_offer.txt")),
    ("mail/decl_offer.html", include_str!("../config/templates/mail/decl_offer.html")),
    ("announcement/decl_successor.txt", include_str!("../config/templates/announcement/decl_successor.txt")),
    ("announcement/decl_vacancy.txt", include_str!("../config/templates/announcement/decl_vacancy.txt")),
    ("announcement/decl_review.txt", include_str!("../config/templates/announcement/decl_review.txt")),
    ("announcement/decl_correction.txt", include_str!("../config/templates/announcement/decl_correction.txt")),
    ("law/rp.txt", include_str!("../config/templates/law/rp.txt")),
    ("mail/rp_offer.txt", include_str!("../config/templates/mail/rp_offer.txt")),
    ("mail/rp_offer.html", include_str!("../config/templates/mail/rp_offer.html")),
    ("announcement/rp_successor.txt", include_str!("../config/templates/announcement/rp_successor.txt")),
    ("announcement/rp_vacancy.txt", include_str!("../config/templates/announcement/rp_vacancy.txt")),
    ("announcement/rp_review.txt", include_str!("../config/templates/announcement/rp_review.txt")),
    ("announcement/rp_correction.txt", include_str!("../config/templates/announcement/rp_correction.txt")),
    ("law/sl.txt", include_str!("../config/templates/law/sl.txt")),
    ("mail/sl_offer.txt", include_str!("../config/templates/mail/sl_offer.txt")),
    ("mail/sl_offer.html", include_str!("../config/templates/mail/sl_offer.html")),
    ("announcement/sl_successor.txt", include_str!("../config/templates/announcement/sl_successor.txt")),
    ("announcement/sl_vacancy.txt", include_str!("../config/templates/announcement/sl_vacancy.txt")),
    ("announcement/sl_review.txt", include_str!("../config/templates/announcement/sl_review.txt")),
    ("announcement/sl_correction.txt", include_str!("../config/templates/announcement/sl_correction.txt")),
    ("law/byb.txt", include_str!("../config/templates/law/byb.txt")),
    ("mail/byb_offer.txt", include_str!("../config/templates/mail/byb_offer.txt")),
    ("mail/byb_offer.html", include_str!("../config/templates/mail/byb_offer.html")),
    ("announcement/byb_successor.txt", include_str!("../config/templates/announcement/byb_successor.txt")),
    ("announcement/byb_vacancy.txt", include_str!("../config/templates/announcement/byb_vacancy.txt")),
    ("announcement/byb_review.txt", include_str!("../config/templates/announcement/byb_review.txt")),
    ("announcement/byb_correction.txt", include_str!("../config/templates/announcement/byb_correction.txt")),
    ("law/ni.txt", include_str!("../config/templates/law/ni.txt")),
    ("mail/ni_offer.txt", include_str!("../config/templates/mail/ni_offer.txt")),
    ("mail/ni_offer.html", include_str!("../config/templates/mail/ni_offer.html")),
    ("announcement/ni_successor.txt", include_str!("../config/templates/announcement/ni_successor.txt")),
    ("announcement/ni_vacancy.txt", include_str!("../config/templates/announcement/ni_vacancy.txt")),
    ("announcement/ni_review.txt", include_str!("../config/templates/announcement/ni_review.txt")),
    ("announcement/ni_correction.txt", include_str!("../config/templates/announcement/ni_correction.txt")),
    ("law/sh.txt", include_str!("../config/templates/law/sh.txt")),
    ("mail/sh_offer.txt", include_str!("../config/templates/mail/sh_offer.txt")),
    ("mail/sh_offer.html", include_str!("../config/templates/mail/sh_offer.html")),
    ("announcement/sh_successor.txt", include_str!("../config/templates/announcement/sh_successor.txt")),
    ("announcement/sh_vacancy.txt", include_str!("../config/templates/announcement/sh_vacancy.txt")),
    ("announcement/sh_review.txt", include_str!("../config/templates/announcement/sh_review.txt")),
    ("announcement/sh_correction.txt", include_str!("../config/templates/announcement/sh_correction.txt")),
    ("law/bb.txt", include_str!("../config/templates/law/bb.txt")),
    ("mail/bb_offer.txt", include_str!("../config/templates/mail/bb_offer.txt")),
    ("mail/bb_offer.html", include_str!("../config/templates/mail/bb_offer.html")),
    ("announcement/bb_successor.txt", include_str!("../config/templates/announcement/bb_successor.txt")),
    ("announcement/bb_vacancy.txt", include_str!("../config/templates/announcement/bb_vacancy.txt")),
    ("announcement/bb_review.txt", include_str!("../config/templates/announcement/bb_review.txt")),
    ("announcement/bb_correction.txt", include_str!("../config/templates/announcement/bb_correction.txt")),
    ("law/mv.txt", include_str!("../config/templates/law/mv.txt")),
    ("mail/mv_offer.txt", include_str!("../config/templates/mail/mv_offer.txt")),
    ("mail/mv_offer.html", include_str!("../config/templates/mail/mv_offer.html")),
    ("announcement/mv_successor.txt", include_str!("../config/templates/announcement/mv_successor.txt")),
    ("announcement/mv_vacancy.txt", include_str!("../config/templates/announcement/mv_vacancy.txt")),
    ("announcement/mv_review.txt", include_str!("../config/templates/announcement/mv_review.txt")),
    ("announcement/mv_correction.txt", include_str!("../config/templates/announcement/mv_correction.txt")),
    ("law/st.txt", include_str!("../config/templates/law/st.txt")),
    ("mail/st_offer.txt", include_str!("../config/templates/mail/st_offer.txt")),
    ("mail/st_offer.html", include_str!("../config/templates/mail/st_offer.html")),
    ("announcement/st_successor.txt", include_str!("../config/templates/announcement/st_successor.txt")),
    ("announcement/st_vacancy.txt", include_str!("../config/templates/announcement/st_vacancy.txt")),
    ("announcement/st_review.txt", include_str!("../config/templates/announcement/st_review.txt")),
    ("announcement/st_correction.txt", include_str!("../config/templates/announcement/st_correction.txt")),
    ("law/th.txt", include_str!("../config/templates/law/th.txt")),
    ("mail/th_offer.txt", include_str!("../config/templates/mail/th_offer.txt")),
    ("mail/th_offer.html", include_str!("../config/templates/mail/th_offer.html")),
    ("announcement/th_successor.txt", include_str!("../config/templates/announcement/th_successor.txt")),
    ("announcement/th_vacancy.txt", include_str!("../config/templates/announcement/th_vacancy.txt")),
    ("announcement/th_review.txt", include_str!("../config/templates/announcement/th_review.txt")),
    ("announcement/th_correction.txt", include_str!("../config/templates/announcement/th_correction.txt")),
    ("law/by.txt", include_str!("../config/templates/law/by.txt")),
    ("mail/by_offer.txt", include_str!("../config/templates/mail/by_offer.txt")),
    ("mail/by_offer.html", include_str!("../config/templates/mail/by_offer.html")),
    ("announcement/by_successor.txt", include_str!("../config/templates/announcement/by_successor.txt")),
    ("announcement/by_vacancy.txt", include_str!("../config/templates/announcement/by_vacancy.txt")),
    ("announcement/by_review.txt", include_str!("../config/templates/announcement/by_review.txt")),
    ("announcement/by_correction.txt", include_str!("../config/templates/announcement/by_correction.txt")),
    // Baden-Württemberg: a letter only, nothing is announced (§ 31 Abs. 2 GemO)
    ("mail/bw_determination.txt", include_str!("../config/templates/mail/bw_determination.txt")),
    ("mail/bw_determination.html", include_str!("../config/templates/mail/bw_determination.html")),
    // Sachsen: a letter only, nothing is announced (§ 34 Abs. 2 SächsGemO)
    ("mail/sn_determination.txt", include_str!("../config/templates/mail/sn_determination.txt")),
    ("mail/sn_determination.html", include_str!("../config/templates/mail/sn_determination.html")),
];

/// A template could not be loaded or rendered.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("template {name}: {source}")]
    Render { name: String, source: minijinja::Error },
    #[error("template file {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// The loaded templates.
pub struct Templates {
    env: Environment<'static>,
}

/// A rendered e-mail body.
#[derive(Debug, Clone)]
pub struct RenderedMail {
    pub text: String,
    pub html: String,
}

impl Templates {
    /// The built-in templates, overridden by files of the same name under `dir`.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(true);
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
        // `{{ "Ihrer Vorgängerin oder Ihres Vorgängers" | gendered(departed.form) }}`: the word of a named person
        // whose form of address is known, both otherwise (texts::gendered; docs/legal.md, "Form of address")
        env.add_filter("gendered", |pair: String, form: Option<String>| {
            let form = match form.as_deref() {
                Some("frau") => Some(nachfolge_core::model::FormOfAddress::Frau),
                Some("herr") => Some(nachfolge_core::model::FormOfAddress::Herr),
                _ => None,
            };
            nachfolge_core::texts::gendered(&pair, form)
        });
        // html templates escape by extension
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                minijinja::AutoEscape::Html
            } else {
                minijinja::AutoEscape::None
            }
        });
        for (name, src) in BUILTIN {
            let source = match dir {
                Some(d) if d.join(name).is_file() => {
                    let path = d.join(name);
                    std::fs::read_to_string(&path)
                        .map_err(|source| TemplateError::Io { path: path.display().to_string(), source })?
                }
                _ => (*src).to_owned(),
            };
            env.add_template_owned(*name, source)
                .map_err(|source| TemplateError::Render { name: (*name).to_owned(), source })?;
        }
        Ok(Templates { env })
    }

    fn render(&self, name: &str, ctx: &minijinja::Value) -> Result<String, TemplateError> {
        let t =
            self.env.get_template(name).map_err(|source| TemplateError::Render { name: name.to_owned(), source })?;
        t.render(ctx).map_err(|source| TemplateError::Render { name: name.to_owned(), source })
    }

    /// Render `mail/<template>.txt` and `.html`. The context is converted into template values once for
    /// both (the conversion cost as much as a rendering: docs/performance.md, "Memory").
    pub fn mail(&self, template: &str, ctx: &Value) -> Result<RenderedMail, TemplateError> {
        let ctx = minijinja::Value::from_serialize(ctx);
        Ok(RenderedMail {
            text: self.render(&format!("mail/{template}.txt"), &ctx)?,
            html: self.render(&format!("mail/{template}.html"), &ctx)?,
        })
    }

    /// Render `announcement/<template>.txt`.
    pub fn announcement(&self, template: &str, ctx: &Value) -> Result<String, TemplateError> {
        self.render(&format!("announcement/{template}.txt"), &minijinja::Value::from_serialize(ctx))
    }
}
