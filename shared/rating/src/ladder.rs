//! Rank ladders as data: ordered grades, lowest first.
//!
//! Built in: the national amateur ladder (25 kyu … 1 kyu, 1 … 7 dan, 8 dan honorary), the professional
//! ladder (初段 … 九段), and the Shanghai and Beijing city kyu ladders (11 levels each: 无级 and 10 … 1
//! 级, below 1 dan; seed 003). An association file may define its own ladder instead.

use serde::{Deserialize, Serialize};

use crate::Rank;

/// One step of a ladder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grade {
    /// The code used in rule files, certificates and the registry (`5k`, `1d`, `9p`, `sh-3`).
    pub code: String,
    /// The name shown to people (`5级`, `业余1段`, `职业九段`, `上海3级组`).
    pub name: String,
    /// The national rank this grade is, if it is one (regional grades are not).
    pub rank: Option<Rank>,
    /// Honorary grades are awarded, never reached by rating.
    pub honorary: bool,
}

/// An ordered ladder of grades, lowest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ladder {
    /// The ladder's id (`amateur`, `professional`, `shanghai`, `beijing`, or an association's own).
    pub id: String,
    /// Grades, lowest first. Codes are unique.
    pub grades: Vec<Grade>,
}

impl Ladder {
    /// The ids of the built-in ladders.
    pub const BUILT_IN: [&'static str; 4] = ["amateur", "professional", "shanghai", "beijing"];

    /// A built-in ladder by id.
    #[must_use]
    pub fn built_in(id: &str) -> Option<Ladder> {
        match id {
            "amateur" => Some(Ladder::amateur()),
            "professional" => Some(Ladder::professional()),
            "shanghai" => Some(Ladder::city("shanghai", "sh", "上海", "组")),
            "beijing" => Some(Ladder::city("beijing", "bj", "北京", "")),
            _ => None,
        }
    }

    /// 25 kyu … 1 kyu, 1 dan … 7 dan, 8 dan (honorary).
    #[must_use]
    pub fn amateur() -> Ladder {
        let kyu = (1..=25u8).rev().map(Rank::Kyu);
        let dan = (1..=8u8).map(Rank::Dan);
        Ladder { id: "amateur".into(), grades: kyu.chain(dan).map(national).collect() }
    }

    /// 初段 (1p) … 九段 (9p).
    #[must_use]
    pub fn professional() -> Ladder {
        Ladder { id: "professional".into(), grades: (1..=9u8).map(Rank::Pro).map(national).collect() }
    }

    fn city(id: &str, prefix: &str, city: &str, group: &str) -> Ladder {
        let mut grades = vec![Grade {
            code: format!("{prefix}-none"),
            name: format!("{city}无级{group}"),
            rank: None,
            honorary: false,
        }];
        grades.extend((1..=10u8).rev().map(|n| Grade {
            code: format!("{prefix}-{n}"),
            name: format!("{city}{n}级{group}"),
            rank: None,
            honorary: false,
        }));
        Ladder { id: id.into(), grades }
    }

    /// The position of a grade code (0 = lowest).
    #[must_use]
    pub fn position(&self, code: &str) -> Option<usize> {
        self.grades.iter().position(|g| g.code == code)
    }

    /// The grade at a position.
    #[must_use]
    pub fn grade(&self, position: usize) -> Option<&Grade> {
        self.grades.get(position)
    }

    /// The codes of all grades, lowest first (for error messages).
    #[must_use]
    pub fn codes(&self) -> Vec<&str> {
        self.grades.iter().map(|g| g.code.as_str()).collect()
    }
}

fn national(rank: Rank) -> Grade {
    Grade { code: rank.to_string(), name: rank.chinese(), rank: Some(rank), honorary: rank.is_honorary() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_ladders() {
        let amateur = Ladder::amateur();
        assert_eq!(amateur.grades.len(), 33);
        assert_eq!(amateur.grades[0].code, "25k");
        assert_eq!(amateur.position("1k"), Some(24));
        assert_eq!(amateur.position("1d"), Some(25));
        assert!(amateur.grades.last().unwrap().honorary);
        assert_eq!(Ladder::professional().grades[0].name, "职业初段");
        for city in ["shanghai", "beijing"] {
            let l = Ladder::built_in(city).unwrap();
            assert_eq!(l.grades.len(), 11, "{city}: 11 levels");
        }
        assert_eq!(Ladder::built_in("shanghai").unwrap().grades[1].name, "上海10级组");
        assert_eq!(Ladder::built_in("shanghai").unwrap().grades[10].code, "sh-1");
    }
}
