//! Issue 32 item 2: a referee corrects a clock as referees say it, in every time system.
//!
//! ```text
//!   control                 main  periods left  → bank
//!   Chinese 60 min, 3 min   300 s  3             main 5:00, every reserved minute
//!   Chinese 60 min, 3 min   0      2             minute 2 of 3, a full minute in it
//!   Chinese 60 min, 3 min   300 s  2             refused: periods are only used after main time
//!   Japanese 10 min, 5×30 s 0      1             the last period, 30 s
//!   Japanese 10 min, 5×30 s 0      6             refused: there are 5
//!   Canadian 10 min, 25/5min 0     —             a full block: 25 moves in 5 min
//!   Fischer, absolute       120 s  —             main only
//! ```

use weiqi_clock::{Bank, BankError, DurationMs, TimeControl};

fn secs(s: i64) -> DurationMs {
    DurationMs(s * 1000)
}

#[test]
fn byo_yomi_corrections_are_made_as_referees_say_them() {
    let chinese = TimeControl::chinese(DurationMs::from_mins(60), 3).unwrap();
    let b = Bank::corrected(&chinese, secs(300), Some(3), None, None).unwrap();
    assert_eq!((b.main, b.periods_left(&chinese)), (secs(300), 3));
    let b = Bank::corrected(&chinese, DurationMs::ZERO, Some(2), None, None).unwrap();
    assert_eq!((b.main, b.periods_left(&chinese), b.period_left), (DurationMs::ZERO, 2, secs(60)));
    assert_eq!(Bank::corrected(&chinese, secs(300), Some(2), None, None), Err(BankError::Phase));
    // The form's default "3 periods" on a control that has 3: the main time only changes.
    assert!(Bank::corrected(&chinese, secs(1), Some(3), None, None).is_ok());

    let japanese = TimeControl::japanese(DurationMs::from_mins(10), 5, secs(30)).unwrap();
    let b = Bank::corrected(&japanese, DurationMs::ZERO, Some(1), None, None).unwrap();
    assert_eq!((b.periods_left(&japanese), b.period_left), (1, secs(30)));
    let b = Bank::corrected(&japanese, DurationMs::ZERO, Some(4), Some(secs(12)), None).unwrap();
    assert_eq!((b.periods_left(&japanese), b.period_left), (4, secs(12)));
    assert_eq!(Bank::corrected(&japanese, DurationMs::ZERO, Some(6), None, None), Err(BankError::Period));
    assert_eq!(Bank::corrected(&japanese, DurationMs::ZERO, Some(2), Some(secs(31)), None), Err(BankError::PeriodLeft));
    assert_eq!(Bank::corrected(&japanese, secs(-1), None, None, None), Err(BankError::Negative));
}

#[test]
fn other_systems_take_main_time_and_a_full_block() {
    let canadian = TimeControl::canadian(DurationMs::from_mins(10), 25, DurationMs::from_mins(5)).unwrap();
    let b = Bank::corrected(&canadian, DurationMs::ZERO, None, None, None).unwrap();
    assert_eq!((b.moves_left, b.period_left), (25, DurationMs::from_mins(5)));
    let b = Bank::corrected(&canadian, DurationMs::ZERO, None, Some(secs(90)), Some(7)).unwrap();
    assert_eq!((b.moves_left, b.period_left), (7, secs(90)));
    let absolute = TimeControl::absolute(DurationMs::from_mins(10)).unwrap();
    assert_eq!(Bank::corrected(&absolute, secs(120), None, None, None).unwrap().main, secs(120));
    assert_eq!(Bank::corrected(&absolute, DurationMs::ZERO, None, None, None), Err(BankError::Empty));
}
