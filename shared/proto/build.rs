//! Compiles `proto/weiqi/v1/*.proto` with protox (pure Rust, no system `protoc`) and generates prost
//! messages and tonic clients and servers. The encoded descriptor set is kept for gRPC reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read when the script runs, not when it was compiled: cargo reuses a compiled build script across
    // checkouts of the same commit in one target directory, and the checkout it was compiled in may be
    // gone.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let files: Vec<PathBuf> =
        std::fs::read_dir(root.join("weiqi/v1"))?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    let mut files: Vec<PathBuf> = files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "proto")).collect();
    files.sort();
    // A new .proto file changes the directory: rebuild then too, not only when a known file changes.
    // The paths are relative to this package, not absolute: cargo shares a build script's output
    // between checkouts of the same commit in one target directory (a CI worktree beside the main
    // checkout), and absolute paths would make each checkout watch the other's files.
    let relative = |p: &std::path::Path| {
        let name = p.strip_prefix(&root).expect("under the proto root");
        PathBuf::from("../../proto").join(name)
    };
    println!("cargo:rerun-if-changed=../../proto/weiqi/v1");
    for f in &files {
        println!("cargo:rerun-if-changed={}", relative(f).display());
    }
    let fds = protox::compile(&files, [&root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("weiqi_descriptor.bin"), prost::Message::encode_to_vec(&fds))?;
    tonic_prost_build::configure().build_server(true).build_client(true).compile_fds(fds)?;
    Ok(())
}
