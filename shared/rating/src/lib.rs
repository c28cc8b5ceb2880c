//! weiqi-rating: the pure rating and rank core (work in progress).
