//! Mapping typed rejections (`weiqi.v1.Rejection`) to gRPC statuses and back, once for every edge.
//!
//! Domain rejections become `InvalidArgument` / `FailedPrecondition` / `NotFound` / `PermissionDenied`
//! / `AlreadyExists`, with the typed reason (an encoded `weiqi.v1.Rejection`) in the status details;
//! infrastructure faults become `Unavailable`; a game whose log does not replay is `Internal`.

use prost::Message;
use tonic::{Code, Status};
use weiqi_proto::v1 as pb;

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
