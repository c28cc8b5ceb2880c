//! Writing SGF: a [`Collection`] back to text, variations included, without recursion.

use crate::tree::{Collection, GameTree, Node};

/// Escapes a value: `]` and `\` get a backslash.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn write_node(out: &mut String, node: &Node) {
    out.push(';');
    for p in &node.properties {
        out.push_str(&p.ident);
        for v in &p.values {
            out.push('[');
            out.push_str(&escape(v));
            out.push(']');
        }
    }
}

/// Writes one game tree. Sequences stay on one level; each variation point opens one `(...)` per
/// child. Lines break every few nodes to keep files readable.
pub fn write_tree(out: &mut String, tree: &GameTree) {
    enum Step {
        Open(usize),
        Close,
    }
    let mut stack = vec![Step::Open(0)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Open(start) => {
                out.push('(');
                let mut cur = start;
                let mut in_line = 0;
                loop {
                    write_node(out, &tree.nodes[cur]);
                    in_line += 1;
                    if cur == 0 || in_line % 10 == 0 {
                        out.push('\n');
                    }
                    match tree.nodes[cur].children.as_slice() {
                        [] => {
                            stack.push(Step::Close);
                            break;
                        }
                        [only] => cur = *only,
                        many => {
                            stack.push(Step::Close);
                            for &child in many.iter().rev() {
                                stack.push(Step::Open(child));
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Writes a whole collection as UTF-8 SGF. A `CA` property in a root is rewritten to `UTF-8`, since
/// that is what the output is.
pub fn write(collection: &Collection) -> String {
    let mut out = String::new();
    for tree in &collection.games {
        let mut tree = tree.clone();
        if tree.root().get("CA").is_some() {
            tree.root_mut().set("CA", "UTF-8");
        }
        write_tree(&mut out, &tree);
        out.push('\n');
    }
    out
}
