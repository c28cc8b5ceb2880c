//! The pure clock core (work in progress).
