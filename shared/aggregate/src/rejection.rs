//! The kinds of refusal every aggregate's rejections fall into, named once for every service: each
//! edge maps a kind to its own answer (a gRPC status in `weiqi_edge::status`, an HTTP status for the
//! pages) in one place.

/// What kind of refusal a rejection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RejectionKind {
    /// The request is malformed (gRPC `InvalidArgument`, HTTP 400).
    InvalidArgument,
    /// The state does not allow it (gRPC `FailedPrecondition`, HTTP 409).
    FailedPrecondition,
    /// Something named does not exist (gRPC `NotFound`, HTTP 404).
    NotFound,
    /// The caller may not do this (gRPC `PermissionDenied`, HTTP 403).
    PermissionDenied,
    /// It exists already (gRPC `AlreadyExists`, HTTP 409).
    AlreadyExists,
}
