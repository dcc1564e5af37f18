//! Which mistake a hint names. Hints reach a report as the sentences a student reads, with
//! the case's details in them (a row, a number, the line printed), so two students with one
//! mistake rarely get the same text. Each kind below is one sentence of nimlab's hints, known
//! by words of it that never vary (its markers), with an id and a title for the class's
//! mistakes. A hint no kind names still groups, by its text with the details blanked
//! ([`kind_of`]); tests/it/mistakes.rs checks that every hint of the corpus of mistakes is
//! named here.

use sha2::{Digest, Sha256};

/// One cause a hint can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintKind {
    /// Stable, for scripts: `debug_print`.
    pub id: &'static str,
    /// What the instructor reads: "Debug prints in the output".
    pub title: &'static str,
    /// Words found in every hint of this kind and in no hint of an earlier kind.
    pub markers: &'static [&'static str],
}

const fn kind(id: &'static str, title: &'static str, markers: &'static [&'static str]) -> HintKind {
    HintKind { id, title, markers }
}

/// The hints of every layer that gives them: `feedback` (output and crashes), `check::cross`
/// (Python 3 against 2.7), `traceback`, `syntax`, then each exercise's. The first kind with a
/// marker in a hint names it, so a kind whose marker another hint's text also holds comes
/// first.
pub const KINDS: &[HintKind] = &[
    // feedback: what any output or crash shows.
    kind(
        "printed_nothing",
        "Printed nothing",
        &["Your program printed nothing"],
    ),
    kind(
        "debug_print",
        "Debug prints in the output",
        &["remove debug prints"],
    ),
    kind(
        "python_value_not_json",
        "A Python value printed instead of JSON",
        &["This is a Python value, not JSON"],
    ),
    kind(
        "true_division",
        "`/` where `//` was meant (a float where a whole number belongs)",
        &[
            "A whole number was printed as a decimal",
            "That is `/` where `//` was meant",
            "where a whole number was expected. Under Python 3",
        ],
    ),
    kind(
        "float_loop_bound",
        "A loop bound computed with `/` (range() given a float)",
        &["was given a float (`'float' object cannot be interpreted as an integer`)"],
    ),
    kind(
        "python2_input",
        "Python 2's input() running the line it reads",
        &[
            "input() runs the line it reads as Python code",
            "ran the line it read as Python code",
        ],
    ),
    kind(
        "lines_in_another_order",
        "The right lines in another order (a set or dict's order)",
        &["printed the right lines in another order"],
    ),
    kind(
        "differs_between_pythons",
        "Passes under one Python, not the other",
        &["The lab needs both: keep `from __future__"],
    ),
    kind(
        "optimal_move_returns_none",
        "No move returned on a losing board",
        &["optimal_move returned nothing (None, printed as null)"],
    ),
    kind(
        "returned_null",
        "A path without a `return` (null printed)",
        &["`null` was printed"],
    ),
    kind(
        "returned_none",
        "No `return` (None printed)",
        &["`None` was printed"],
    ),
    kind(
        "read_past_input",
        "Reads more input than the case gives",
        &["The program read past the end of its input"],
    ),
    kind(
        "import_missing_name",
        "Imports a name the sibling file lacks",
        &["was found, but it has no `"],
    ),
    kind(
        "import_not_available",
        "Imports a module that is not available",
        &["cannot be imported here: only Python's standard library"],
    ),
    kind(
        "missing_sibling",
        "A sibling exercise's file missing beside the submission",
        &["in the same folder as"],
    ),
    kind(
        "python2_only_name",
        "A name that exists only in Python 2",
        &["exists only in Python 2;"],
    ),
    kind(
        "mutates_board",
        "Changes the board it was given",
        &["make_move must leave the list it was given as it was"],
    ),
    kind(
        "max_of_empty",
        "max() or min() of an empty list",
        &["was given an empty list, which has no largest or smallest item"],
    ),
    kind(
        "endless_recursion",
        "Recursion that never stops",
        &["Your recursion never stops"],
    ),
    kind(
        "int_of_text",
        "int() of text that is no number",
        &["int() was given text that is not a whole number"],
    ),
    kind(
        "sandbox_refused",
        "Asks the system for what the sandbox refuses",
        &["The grader's sandbox refused something"],
    ),
    kind(
        "non_ascii_text",
        "Non-ASCII text between Python 2 and 3",
        &["Python 2 and 3 treat text differently"],
    ),
    kind(
        "idle",
        "Waits for something until the time limit",
        &["The program spent most of its time idle"],
    ),
    kind(
        "endless_loop",
        "A loop that never ends",
        &["The program was busy the whole time"],
    ),
    kind(
        "memory_hog",
        "Builds something very large",
        &["Your program built something very large"],
    ),
    kind(
        "output_flood",
        "Prints without end",
        &["Your program printed far more than any answer needs"],
    ),
    kind(
        "wrong_file",
        "Another exercise's file",
        &["Check that you chose the right file"],
    ),
    // syntax: files that do not compile.
    kind(
        "too_deep",
        "Expressions nested too deeply to compile",
        &["Break the deepest expression into steps"],
    ),
    kind(
        "utf16_file",
        "A file saved as UTF-16",
        &["The file is saved as UTF-16"],
    ),
    kind(
        "nul_byte",
        "A NUL byte in the file",
        &["A NUL byte is invisible in most editors"],
    ),
    kind(
        "print_statement",
        "Python 2's print statement",
        &["print is a function in Python 3"],
    ),
    kind(
        "f_string",
        "f-strings, which Python 2.7 lacks",
        &["f-strings do not exist in Python 2.7"],
    ),
    kind(
        "type_annotations",
        "Type annotations, which Python 2.7 lacks",
        &["Type annotations do not exist in Python 2.7"],
    ),
    kind(
        "unknown_encoding",
        "A coding line naming an unknown encoding",
        &["The coding line names an encoding Python does not know"],
    ),
    kind(
        "not_utf8",
        "A file that is not UTF-8",
        &["The file is not UTF-8 text"],
    ),
    kind(
        "tabs_and_spaces",
        "Tabs mixed with spaces",
        &["Indent with spaces only"],
    ),
    kind(
        "undeclared_encoding",
        "Non-ASCII text without a coding line (Python 2)",
        &["Python 2 needs `# -*- coding: utf-8 -*-`"],
    ),
    // Rows counted from 0, in each exercise that numbers rows.
    kind(
        "zero_based_row",
        "Rows counted from 0",
        &[
            "Rows are numbered from 1, not 0",
            "It looks like you used `row` as a list index",
            "Your move would be right one row further down",
        ],
    ),
    // present_board
    kind(
        "missing_header",
        "No `Nim:` line",
        &["The board starts with a line that says exactly `Nim:`"],
    ),
    kind(
        "xs_without_spaces",
        "No spaces between the Xs",
        &["Put a space between the Xs"],
    ),
    kind(
        "lines_as_list",
        "A list of lines returned, not one text",
        &["Your function returned a list of lines"],
    ),
    kind(
        "one_x_short",
        "One X too few per row",
        &["Each row shows one X fewer than it holds"],
    ),
    kind(
        "one_x_too_many",
        "One X too many per row",
        &["Each row shows one X more than it holds"],
    ),
    // make_move
    kind(
        "negative_row",
        "Row 0 or a negative row taken as legal",
        &["so row 0 and negative rows do not exist"],
    ),
    kind(
        "cannot_empty_row",
        "Taking a whole row refused",
        &["Taking every element of a row is a legal move"],
    ),
    kind(
        "illegal_move_accepted",
        "An illegal move played",
        &["so make_move must return an unchanged copy of the board and False"],
    ),
    kind(
        "legal_move_refused",
        "A legal move refused",
        &["This move is legal: take the elements and return True."],
    ),
    kind(
        "board_only",
        "The board returned without whether the move was legal",
        &["make_move returns two things"],
    ),
    // exclusive_or (the settled hints first: they share words with the unsettled one)
    kind(
        "or_instead",
        "`or` instead of exclusive or",
        &[
            "this is where it differs from `or`",
            "That is a OR b",
            "That is the rows combined with or (|)",
        ],
    ),
    kind(
        "and_instead",
        "`and` instead of exclusive or",
        &[
            "which is what `a and b` gives. Exclusive or",
            "That is a AND b",
        ],
    ),
    kind(
        "equality_instead",
        "Equality instead of exclusive or",
        &["your function gives 1 when the bits are equal"],
    ),
    kind(
        "both_ones",
        "1 when both bits are 1",
        &["When both bits are 1, exclusive or gives 0, and yours gives 1"],
    ),
    kind(
        "one_bit_gives_zero",
        "0 when exactly one bit is 1",
        &["When exactly one bit is 1, exclusive or gives 1"],
    ),
    kind(
        "booleans_not_bits",
        "True and False instead of 1 and 0",
        &["exclusive_or returns the numbers 1 and 0, not True and False"],
    ),
    // bin_num
    kind(
        "reversed_digits",
        "Digits in reverse order",
        &["Your digits are in reverse order"],
    ),
    kind(
        "zero_has_a_digit",
        "Zero written with a digit",
        &["Zero is written with no digits at all here"],
    ),
    kind(
        "digits_as_text",
        "Digits as strings",
        &["The digits must be numbers (1), not strings"],
    ),
    kind(
        "reads_digits_backwards",
        "Digits read from the wrong end",
        &["You read the digits from the wrong end"],
    ),
    kind(
        "powers_off_by_one",
        "Each digit's power of 2 one too high",
        &["Your number is twice the right one"],
    ),
    // bitwise_xor
    kind(
        "stops_at_shorter",
        "Stops when the shorter number runs out",
        &["Your loop stopped when the shorter number ran out"],
    ),
    kind(
        "wide_numbers",
        "Numbers wider than 64 bits",
        &["This case has numbers wider than 64 bits"],
    ),
    // nim_sum
    kind(
        "positions_swapped",
        "N- and P-positions swapped",
        &["definition of N- and P-positions again"],
    ),
    kind(
        "positions_as_numbers",
        "A number where True or False belongs",
        &["is_n_position and is_p_position answer True or False"],
    ),
    kind(
        "adds_rows",
        "Rows added instead of XORed",
        &["That is the ordinary sum of the rows"],
    ),
    kind(
        "first_row_twice",
        "The first row counted twice",
        &["The first row is missing from your nim-sum"],
    ),
    kind(
        "return_in_loop",
        "`return` inside the loop",
        &["its `return` is inside the loop"],
    ),
    // optimal_move
    kind(
        "row_not_checked",
        "A row that gives no winning move",
        &["Not every row gives the winning move"],
    ),
    kind(
        "target_size",
        "The size to leave returned, not the elements to take",
        &["You returned the size the row should be left with"],
    ),
    kind(
        "takes_nim_sum",
        "Takes nim-sum elements",
        &["Taking nim-sum elements is not the rule"],
    ),
    // ui
    kind(
        "zeros_not_empty",
        "A board of empty rows taken as not empty",
        &["A board whose rows all hold 0 elements is empty too"],
    ),
    kind(
        "case_sensitive",
        "\"computer\" matched in one letter case",
        &["counts in any letter case"],
    ),
    kind(
        "human_inverted",
        "is_human inverted",
        &["yours gives the opposite"],
    ),
    // misere_move
    kind(
        "misere_normal_strategy",
        "The normal game's move at misère's end",
        &["This is the normal game's winning move (it leaves nim-sum 0), but under misère"],
    ),
    kind(
        "misere_counts_empty_rows",
        "Rows of one miscounted at misère's end",
        &["an even number of them hold one element"],
    ),
    // working_game and misere_game
    kind(
        "game_no_modes",
        "The three modes not offered",
        &["The lab's first rule is that the players choose any of the three modes"],
    ),
    kind(
        "game_silent_retry",
        "An illegal move refused without a word",
        &["asked the same player again without saying why"],
    ),
    kind(
        "game_board_not_found",
        "No board nimlab could read",
        &["nimlab could not find the board in your program's output"],
    ),
    kind(
        "game_not_playable",
        "A game nimlab could not play",
        &["nimlab could not work out how to play your game"],
    ),
    kind(
        "misere_normal_winner",
        "The normal game's winner announced under misère",
        &["Under misère rules the player who takes the last element loses"],
    ),
    kind(
        "game_announces_loser",
        "The wrong winner announced",
        &["The player who takes the last element wins: announce"],
    ),
    kind(
        "misere_normal_computer",
        "The computer not playing misère's strategy",
        &["The computer must play the misère strategy"],
    ),
    kind(
        "game_weak_computer",
        "The computer not playing the winning strategy",
        &["The computer must play the winning strategy (optimal_move)"],
    ),
    kind(
        "game_illegal_move_played",
        "An illegal move changes the board",
        &["After an illegal move the board must stay as it was"],
    ),
    kind(
        "game_turn_passes_on_illegal",
        "The turn passes after an illegal move",
        &["The turn passes to the other player after a legal move, and only then"],
    ),
    kind(
        "game_name_read_as_number",
        "A name read as a number",
        &["player's name because the question"],
    ),
    kind(
        "game_board_input_crash",
        "Crashes reading the board",
        &["The program crashed on the board"],
    ),
    kind(
        "game_setup_answer_crash",
        "Crashes on a setup answer",
        &[", nimlab's answer to `"],
    ),
    kind(
        "game_bad_move_crash",
        "Crashes on a line that is no move",
        &["is not a move, and the program crashed on it"],
    ),
    kind(
        "game_comma_move_crash",
        "Crashes on a move written with a comma",
        &["row and elements with a comma between"],
    ),
    kind(
        "game_accepts_illegal",
        "Crashes after an illegal move",
        &["a move that is not legal on this board"],
    ),
];

/// The kind that names `hint`, if one does.
pub fn named(hint: &str) -> Option<&'static HintKind> {
    KINDS
        .iter()
        .find(|kind| kind.markers.iter().any(|marker| hint.contains(marker)))
}

/// A hint's cause as the class's mistakes group it: its kind's id and title, or for a hint
/// no kind names, an id made from its text with the details blanked (what is quoted, and
/// numbers) and that text as its title, so the same sentence about other details still
/// groups.
pub fn kind_of(hint: &str) -> (String, String) {
    if let Some(kind) = named(hint) {
        return (kind.id.to_string(), kind.title.to_string());
    }
    let blanked = blank_details(hint);
    let digest = Sha256::digest(blanked.as_bytes());
    let hash: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    let title = crate::printed::clip(&blanked, 1, 160);
    (format!("hint-{hash}"), title.trim_end().to_string())
}

/// `hint` with what varies between students blanked: quoted spans (`...`) and numbers.
fn blank_details(hint: &str) -> String {
    let mut out = String::with_capacity(hint.len());
    let mut quoted = false;
    let mut in_number = false;
    for c in hint.chars() {
        if c == '`' {
            if !quoted {
                out.push_str("`…`");
            }
            quoted = !quoted;
            in_number = false;
            continue;
        }
        if quoted {
            continue;
        }
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
            continue;
        }
        in_number = false;
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_marker_names_its_own_kind_and_ids_are_unique() {
        let mut ids = std::collections::BTreeSet::new();
        for kind in KINDS {
            assert!(ids.insert(kind.id), "{} twice", kind.id);
            assert!(!kind.markers.is_empty(), "{}", kind.id);
            for marker in kind.markers {
                assert_eq!(named(marker).map(|k| k.id), Some(kind.id), "{marker:?}");
            }
            let plain = kind
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            assert!(plain, "{}", kind.id);
        }
    }

    #[test]
    fn hints_with_their_details_are_named_by_their_kind() {
        let cases = [
            (
                "Your answer is there, but so is `DEBUG board = [3]`: remove debug prints. The grader reads everything your program prints.",
                "debug_print",
            ),
            (
                "Your program passes under Python 2.7.18 but not under Python 3.11.7: on case sample/01-three-five, Python 3.11.7 printed a number 324 digits long where a whole number was expected. That is `/` where `//` was meant: ...",
                "true_division",
            ),
            (
                "On case sample/01-six-to-digits, Python 3.11.7 printed a decimal (`1.0`) where a whole number was expected. Under Python 3 (and with `from __future__ import division`) `/` always gives a float, even 6 / 2: use `//` for whole-number division.",
                "true_division",
            ),
            (
                "On a hidden case, range() under Python 3.11.7 was given a float (`'float' object cannot be interpreted as an integer`). A loop bound computed with `/` is a float under Python 3 (and with `from __future__ import division`): compute it with `//`.",
                "float_loop_bound",
            ),
            (
                "When both bits are 1, exclusive or gives 0: yours gives 1 here and 0 when exactly one bit is 1, which is what `a and b` gives. Exclusive or is 1 when exactly one bit is 1.",
                "and_instead",
            ),
            (
                "This move is illegal (row 4 does not exist), so make_move must return an unchanged copy of the board and False.",
                "illegal_move_accepted",
            ),
            (
                "The program crashed after `4, 1`, a move that is not legal on this board (IndexError: list index out of range): check a move ...",
                "game_accepts_illegal",
            ),
            (
                "Your file imports `exclusive_or`: put your exclusive_or.py in the same folder as this file.",
                "missing_sibling",
            ),
        ];
        for (hint, id) in cases {
            assert_eq!(kind_of(hint).0, id, "{hint}");
        }
    }

    #[test]
    fn an_unnamed_hint_groups_by_its_text_with_the_details_blanked() {
        let (one, title) = kind_of("Row `3` holds 12 elements, not `4`.");
        let (other, _) = kind_of("Row `1` holds 7 elements, not `20`.");
        assert_eq!(one, other);
        assert!(one.starts_with("hint-"), "{one}");
        assert_eq!(title, "Row `…` holds # elements, not `…`.");
        assert_ne!(kind_of("Something else entirely.").0, one);
    }
}
