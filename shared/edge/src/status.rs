//! Mapping typed rejections (`weiqi.v1.Rejection`) to gRPC statuses and back, once for every edge.
//!
//! Domain rejections become `InvalidArgument` / `FailedPrecondition` / `NotFound` / `PermissionDenied`
//! / `AlreadyExists`, with the typed reason (an encoded `weiqi.v1.Rejection`) in the status details;
//! infrastructure faults become `Unavailable`; a game whose log does not replay is `Internal`.

use prost::Message;
use tonic::{Code, Status};
use weiqi_aggregate::RejectionKind;
use weiqi_proto::v1 as pb;

/// A rejection kind on the wire.
pub fn kind_to_pb(kind: RejectionKind) -> pb::rejection::Kind {
    match kind {
        RejectionKind::InvalidArgument => pb::rejection::Kind::InvalidArgument,
        RejectionKind::FailedPrecondition => pb::rejection::Kind::FailedPrecondition,
        RejectionKind::NotFound => pb::rejection::Kind::NotFound,
        RejectionKind::PermissionDenied => pb::rejection::Kind::PermissionDenied,
        RejectionKind::AlreadyExists => pb::rejection::Kind::AlreadyExists,
    }
}

/// The rejection kind of a wire value (an unknown value is a failed precondition, as a status says).
pub fn kind_from_pb(kind: i32) -> RejectionKind {
    match pb::rejection::Kind::try_from(kind) {
        Ok(pb::rejection::Kind::InvalidArgument) => RejectionKind::InvalidArgument,
        Ok(pb::rejection::Kind::NotFound) => RejectionKind::NotFound,
        Ok(pb::rejection::Kind::PermissionDenied) => RejectionKind::PermissionDenied,
        Ok(pb::rejection::Kind::AlreadyExists) => RejectionKind::AlreadyExists,
        _ => RejectionKind::FailedPrecondition,
    }
}

/// A domain rejection of `kind` on the wire, with its stable code and message.
pub fn rejection(kind: RejectionKind, code: &str, message: impl Into<String>) -> pb::Rejection {
    pb::Rejection { kind: kind_to_pb(kind) as i32, code: code.to_string(), message: message.into() }
}

/// The status of a domain rejection of `kind`, with the typed reason in its details.
pub fn rejected(kind: RejectionKind, code: &str, message: impl Into<String>) -> Status {
    rejection_status(&rejection(kind, code, message))
}

/// The HTTP status a page answers a refusal of `kind` with.
pub fn http_status(kind: RejectionKind) -> http::StatusCode {
    match kind {
        RejectionKind::InvalidArgument => http::StatusCode::BAD_REQUEST,
        RejectionKind::FailedPrecondition | RejectionKind::AlreadyExists => http::StatusCode::CONFLICT,
        RejectionKind::NotFound => http::StatusCode::NOT_FOUND,
        RejectionKind::PermissionDenied => http::StatusCode::FORBIDDEN,
    }
}

/// A status for a rejection, with the rejection in its details.
pub fn rejection_status(r: &pb::Rejection) -> Status {
    let code = match pb::rejection::Kind::try_from(r.kind) {
        Ok(pb::rejection::Kind::InvalidArgument) => Code::InvalidArgument,
        Ok(pb::rejection::Kind::NotFound) => Code::NotFound,
        Ok(pb::rejection::Kind::PermissionDenied) => Code::PermissionDenied,
        Ok(pb::rejection::Kind::AlreadyExists) => Code::AlreadyExists,
        _ => Code::FailedPrecondition,
    };
    Status::with_details(code, format!("{}: {}", r.code, r.message), r.encode_to_vec().into())
}

/// A rejection made at the gateway (bad request, wrong role), with the same details shape.
pub fn gateway_rejection(kind: pb::rejection::Kind, code: &str, message: impl Into<String>) -> Status {
    rejection_status(&pb::Rejection { kind: kind as i32, code: code.to_string(), message: message.into() })
}

/// The typed rejection carried by a status, if any (for clients and tests).
pub fn rejection_of(status: &Status) -> Option<pb::Rejection> {
    pb::Rejection::decode(status.details()).ok().filter(|r| !r.code.is_empty())
}
