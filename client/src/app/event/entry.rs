//! Entering an event from its page (issue 21): register (with the invite
//! code an invite-only event needs) while registration is open, then
//! check in when the event pairs only players who did; the event's
//! directors see the invite code to hand out. An invite code as handed
//! out names its event too ("3-5f2a9c01d4e7"), so the lobby can register
//! with it alone ([`parse_invite`]).

use super::EventApp;
use egui::{Color32, RichText, Ui};
use muster_shared::protocol::club::{ClubRequest, EventId, EventView};

/// The button that registers for the event.
pub const REGISTER: &str = "Register";
/// The button that checks in.
pub const CHECK_IN: &str = "Check in";
/// The invite code's field.
pub const INVITE_LABEL: &str = "Invite code:";
/// Said once the server has checked the player in.
pub const CHECKED_IN_WORDS: &str = "You are checked in: you will be paired when the round starts";

const GREEN: Color32 = Color32::from_rgb(0x40, 0xc0, 0x60);

/// An event's invite code as handed out: the event's number, a dash, and
/// the code the server made.
pub fn invite_code(event: EventId, code: &str) -> String {
    format!("{}-{code}", event.0)
}

/// The event and the server's code in an invite code as handed out
/// ("3-5f2a9c01d4e7"); the words of what is wrong otherwise.
pub fn parse_invite(text: &str) -> Result<(EventId, String), String> {
    let bad = || {
        "an invite code is the event's number, a dash and the code, as the director gave it \
         (like 3-5f2a9c01d4e7)"
            .to_string()
    };
    let (n, code) = text.trim().split_once('-').ok_or_else(bad)?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    let code = code.trim();
    if code.is_empty() || code.len() > 64 || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(bad());
    }
    Ok((EventId(n), code.to_string()))
}

/// What the page says once registered.
pub fn registered_words(view: Option<&EventView>) -> String {
    if view.is_some_and(|v| v.check_in) {
        "You are registered: check in before the first round starts".into()
    } else {
        "You are registered: you will be paired when the round starts".into()
    }
}

/// Register, check in, or the invite code for directors.
pub fn ui(ui: &mut Ui, app: &mut EventApp) {
    let Some(view) = app.view.clone() else { return };
    let me = app.me.as_ref().map(|(u, _)| *u);
    let entered = me.is_some_and(|me| view.entrants.iter().any(|(u, _)| *u == me));
    if let Some(code) = &view.invite {
        ui.label(format!(
            "Invite code to give your players: {}",
            invite_code(view.event, code)
        ));
    }
    if !view.registration_open {
        return;
    }
    if !entered {
        ui.horizontal_wrapped(|ui| {
            if view.invite_only {
                let l = ui.label(INVITE_LABEL);
                ui.add(egui::TextEdit::singleline(&mut app.invite).desired_width(140.0))
                    .labelled_by(l.id);
            }
            if ui.button(REGISTER).clicked() {
                let typed = app.invite.trim();
                // The code as handed out names the event; the server's
                // code alone is taken too.
                let invite = match parse_invite(typed) {
                    Ok((_, code)) => Some(code),
                    Err(_) if typed.is_empty() => None,
                    Err(_) => Some(typed.to_string()),
                };
                let invite = invite.filter(|_| view.invite_only);
                let event = app.event;
                app.send(ClubRequest::Register { event, invite });
            }
        });
        if view.invite_only {
            ui.weak("This event takes players by invite code: ask its director for one.");
        }
    } else if view.check_in && !view.checked_in {
        ui.horizontal_wrapped(|ui| {
            ui.label("You are registered; the first round pairs only players who checked in.");
            if ui.button(CHECK_IN).clicked() {
                let event = app.event;
                app.send(ClubRequest::CheckIn { event });
            }
        });
    } else if view.check_in {
        ui.label(RichText::new("You are checked in.").color(GREEN));
    } else {
        ui.label(RichText::new("You are registered.").color(GREEN));
    }
    ui.separator();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_code_names_its_event() {
        let code = invite_code(EventId(3), "5f2a9c01d4e7");
        assert_eq!(code, "3-5f2a9c01d4e7");
        assert_eq!(parse_invite(&code), Ok((EventId(3), "5f2a9c01d4e7".into())));
        assert_eq!(
            parse_invite(" 12 - ab12 "),
            Ok((EventId(12), "ab12".into()))
        );
        for bad in [
            "",
            "5f2a9c01d4e7",
            "x-ab",
            "3-",
            "3-a b",
            "99999999999999999999-ab",
        ] {
            assert!(parse_invite(bad).is_err(), "{bad}");
        }
    }
}
