//! Muster client library (headless follow-and-verify); the desktop app grows here.
