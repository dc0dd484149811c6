//! What the club kittests (`club_ui.rs`, `event_ui.rs`,
//! `lobby_events_ui.rs`) do to any screen: step a few frames, type into a
//! labelled field, check that no programmer text shows, save a rendered
//! screenshot to `docs/screens/`.

use egui::Modifiers;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

/// A few frames, so the last update is drawn.
pub fn steps<S>(h: &mut Harness<'_, S>) {
    for _ in 0..3 {
        h.step();
    }
}

/// Type into the text field labelled `label`, replacing what is there.
pub fn type_into<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_label(label).click();
    steps(h);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    steps(h);
    h.get_by_label(label).type_text(text);
    steps(h);
}

/// Empty the text field labelled `label`.
pub fn clear<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_label(label).click();
    steps(h);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    steps(h);
}

/// Every text on screen (labels and values).
pub fn texts<S>(h: &Harness<'_, S>) -> Vec<String> {
    let mut out = Vec::new();
    for node in h.query_all(By::new().include_labels()) {
        let n = node.accesskit_node();
        out.extend(
            [n.label(), n.value()]
                .into_iter()
                .flatten()
                .map(|t| t[..].to_string()),
        );
    }
    out
}

/// Whether some text on screen contains `words`.
pub fn shows<S>(h: &Harness<'_, S>, words: &str) -> bool {
    texts(h).iter().any(|t| t.contains(words))
}

/// No snake_case, Debug output or ids on screen.
pub fn no_programmer_text<S>(h: &Harness<'_, S>) {
    for t in texts(h) {
        assert!(
            !t.contains('_') && !t.contains("Some(") && !t.contains("UserId") && !t.contains('{'),
            "programmer text on screen: {t:?}"
        );
    }
}

/// Render (headless wgpu) and save `docs/screens/<name>`, the pointer
/// parked at `rest` first so no hover shows by chance.
pub fn save<S>(h: &mut Harness<'_, S>, name: &str, rest: egui::Pos2) {
    h.hover_at(rest);
    steps(h);
    save_as_shown(h, name);
}

/// Save `docs/screens/<name>` as the window is now, hover and all (a
/// tooltip the screenshot is meant to show).
pub fn save_as_shown<S>(h: &mut Harness<'_, S>, name: &str) {
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(name)).unwrap();
    eprintln!("screenshot: docs/screens/{name}");
}
