//! The SGF tree: a collection of game trees, each an arena of nodes with properties.
//!
//! Nodes live in one `Vec` per game tree and refer to each other by index, so that deep records
//! (thousands of moves) and deep variation nesting never recurse on the stack. The first child of a
//! node is the main line.

use crate::charset::Charset;

/// One property: an identifier and its values, as decoded text with escapes removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Upper-case identifier (`B`, `KM`, `AB`, ...). FF[3] lower-case letters are dropped.
    pub ident: String,
    /// The values, unescaped.
    pub values: Vec<String>,
    /// Byte offset of the identifier in the source (0 for properties made in code).
    pub offset: usize,
}

/// A node: its properties and its children (the first child continues the main line).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    /// Properties in source order.
    pub properties: Vec<Property>,
    /// Indices of child nodes in the tree's arena.
    pub children: Vec<usize>,
    /// Index of the parent node, `None` for the root.
    pub parent: Option<usize>,
    /// Byte offset of the node's `;` in the source.
    pub offset: usize,
}

impl Node {
    /// The first property with this identifier.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.ident == ident)
    }

    /// The first value of the first property with this identifier.
    pub fn value(&self, ident: &str) -> Option<&str> {
        self.get(ident).and_then(|p| p.values.first()).map(String::as_str)
    }

    /// Sets a property to a single value, replacing any earlier one.
    pub fn set(&mut self, ident: &str, value: impl Into<String>) {
        let value = value.into();
        match self.properties.iter_mut().find(|p| p.ident == ident) {
            Some(p) => p.values = vec![value],
            None => self.properties.push(Property { ident: ident.to_string(), values: vec![value], offset: 0 }),
        }
    }
}

/// One game tree: an arena of nodes whose root is index 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    /// All nodes; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
}

impl GameTree {
    /// A tree with an empty root node.
    pub fn new() -> GameTree {
        GameTree { nodes: vec![Node::default()] }
    }

    /// The root node (game information and setup).
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The root node, mutably.
    pub fn root_mut(&mut self) -> &mut Node {
        &mut self.nodes[0]
    }

    /// Adds a child to `parent` and returns its index.
    pub fn add_child(&mut self, parent: usize, properties: Vec<Property>) -> usize {
        let idx = self.nodes.len();
        self.nodes.push(Node { properties, children: Vec::new(), parent: Some(parent), offset: 0 });
        self.nodes[parent].children.push(idx);
        idx
    }

    /// The nodes of the main line, root first: each node's first child.
    pub fn main_line(&self) -> impl Iterator<Item = &Node> + '_ {
        let mut cur = Some(0);
        std::iter::from_fn(move || {
            let i = cur?;
            let node = &self.nodes[i];
            cur = node.children.first().copied();
            Some(node)
        })
    }

    /// Number of nodes that have more than one child (variation points).
    pub fn variation_points(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.len() > 1).count()
    }
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

/// A parsed SGF file: one or more game trees, and the charset its text was decoded from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    /// The game trees in file order.
    pub games: Vec<GameTree>,
    /// The charset the source was decoded from.
    pub charset: Charset,
}
