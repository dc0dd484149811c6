//! The account screen (issue 21): the guest identity claimed as an account
//! under its name with a password, so its owner can sign in to it from
//! another machine (the connect screen's password field). The password is
//! checked here as the server would (length, typed twice alike) before it
//! is sent; the server's refusal shows in its words.

use egui::{Color32, RichText, Ui};

/// The password fields' labels and the claim button.
pub const PASSWORD: &str = "Password:";
pub const PASSWORD_AGAIN: &str = "Password again:";
pub const CLAIM: &str = "Claim as an account";

/// The server's bounds on a password (`server/src/club/accounts.rs`).
pub const MIN_PASSWORD: usize = 8;
pub const MAX_PASSWORD: usize = 256;

/// What is typed on the account screen.
#[derive(Clone, Debug, Default)]
pub struct AccountForm {
    pub password: String,
    pub again: String,
    /// A claim was sent and not yet answered.
    pub claiming: bool,
    /// Why the form was not sent, in words.
    pub problem: Option<String>,
}

/// Why `password` (typed twice) cannot be sent, in words.
pub fn check(password: &str, again: &str) -> Result<(), String> {
    if password.len() < MIN_PASSWORD {
        return Err(format!(
            "A password needs at least {MIN_PASSWORD} characters."
        ));
    }
    if password.len() > MAX_PASSWORD {
        return Err(format!("A password may have at most {MAX_PASSWORD} bytes."));
    }
    if password != again {
        return Err("The two passwords differ: type the same one twice.".into());
    }
    Ok(())
}

impl AccountForm {
    /// Draw the screen for the identity `name` (`account`: whether the
    /// server says it is one, once it said); the password to claim with
    /// when "Claim as an account" was clicked and the form is sound.
    pub fn ui(&mut self, ui: &mut Ui, name: &str, account: Option<bool>) -> Option<String> {
        ui.heading("Your account");
        ui.add_space(6.0);
        match account {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Asking the server…");
                });
                return None;
            }
            Some(true) => {
                ui.label(
                    RichText::new(format!("{name} is an account."))
                        .strong()
                        .color(Color32::from_rgb(0x40, 0xc0, 0x60)),
                );
                ui.label(format!(
                    "On another machine, type {name} and your password on the connect screen \
                     to play as {name} there."
                ));
                return None;
            }
            Some(false) => {}
        }
        ui.label(format!(
            "{name} is a guest: only this machine can play as {name}. Claim the name as an \
             account with a password, and sign in to it from any machine."
        ));
        ui.add_space(6.0);
        let mut go = false;
        egui::Grid::new("account_grid")
            .num_columns(2)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label(PASSWORD);
                ui.add(
                    egui::TextEdit::singleline(&mut self.password)
                        .password(true)
                        .desired_width(240.0),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label(PASSWORD_AGAIN);
                let r = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.again)
                            .password(true)
                            .desired_width(240.0),
                    )
                    .labelled_by(l.id);
                go |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.end_row();
            });
        ui.weak(format!(
            "At least {MIN_PASSWORD} characters. The server keeps only a salted hash of it."
        ));
        go |= ui
            .add_enabled(!self.claiming, egui::Button::new(CLAIM))
            .clicked();
        if let Some(p) = &self.problem {
            ui.label(RichText::new(p).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
        }
        if !go || self.claiming {
            return None;
        }
        match check(&self.password, &self.again) {
            Ok(()) => {
                self.problem = None;
                self.claiming = true;
                let password = std::mem::take(&mut self.password);
                self.again.clear();
                Some(password)
            }
            Err(why) => {
                self.problem = Some(why);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn a_password_is_checked_before_it_is_sent() {
        assert!(check("short", "short").unwrap_err().contains("at least 8"));
        assert!(
            check("long enough", "long enougH")
                .unwrap_err()
                .contains("differ")
        );
        assert!(check(&"x".repeat(257), &"x".repeat(257)).is_err());
        assert!(check("long enough", "long enough").is_ok());
    }
}
