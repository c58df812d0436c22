"""`laugh simulate`, `laugh records check` and `laugh odds`, driven as a user would."""

import json

import pytest

from tutor.app.cli import main


def test_simulate_writes_records_that_records_check_accepts(tmp_path, capsys):
    out = tmp_path / "deals.jsonl"
    assert (
        main(
            [
                "simulate",
                "--ruleset",
                "porges",
                "--players",
                "4",
                "--deals",
                "40",
                "--seed",
                "7",
                "--bots",
                "counter,random,willughby,random",
                "--mistakes",
                "0.3",
                "--records",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "dealer" in text and "eldest" in text and "Dealer's advantage" in text
    assert len(out.read_text().splitlines()) == 40
    assert main(["records", "check", str(out)]) == 0
    assert "40 records checked: 40 good, 0 bad" in capsys.readouterr().out


def test_simulate_every_ruleset_and_player_count(tmp_path, capsys, library):
    for rid, rs in sorted(library.rulesets.items()):
        for n in rs.player_counts:
            out = tmp_path / f"{rid}-{n}.jsonl"
            assert (
                main(
                    [
                        "simulate",
                        "-r",
                        rid,
                        "-n",
                        str(n),
                        "--deals",
                        "5",
                        "--records",
                        str(out),
                        "--mistakes",
                        "0.5",
                        "--json",
                    ]
                )
                == 0
            )
            summary = json.loads(capsys.readouterr().out)
            assert summary["players"] == n and len(summary["seats"]) == n
            assert main(["records", "check", str(out)]) == 0
            capsys.readouterr()


def test_simulate_json_is_independent_of_workers(capsys):
    args = ["simulate", "--deals", "400", "--seed", "11", "--json", "--bots", "random"]
    main(args + ["--workers", "1"])
    one = json.loads(capsys.readouterr().out)
    main(args + ["--workers", "2"])
    two = json.loads(capsys.readouterr().out)
    assert one["seats"] == two["seats"]
    assert sum(s["mean"] for s in one["seats"]) == pytest.approx(0, abs=1e-6)


def test_records_check_reports_each_bad_record_on_its_own_line(tmp_path, capsys):
    good = tmp_path / "g.jsonl"
    main(["simulate", "--deals", "3", "--records", str(good), "--json"])
    capsys.readouterr()
    lines = good.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["actions"][2]["player"] = (rec["actions"][2]["player"] + 1) % 5
    bad = tmp_path / "b.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(rec), "{not json", lines[2]]) + "\n")
    assert main(["records", "check", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}:2: action 2")
    assert out[1].startswith(f"{bad}:3: not JSON")
    assert out[-1] == "4 records checked: 2 good, 2 bad"


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["simulate", "--ruleset", "nosuch"], "rulesets: du-coeur"),
        (["simulate", "--players", "9"], "choose from 3, 4, 5, 6"),
        (["simulate", "--bots", "clever"], "computer players: random, willughby, counter"),
        (["simulate", "--deals", "lots"], "not a whole number"),
        (["simulate", "--mistakes", "2"], "not between 0 and 1"),
        (["odds", "--ruleset", "nosuch"], "rulesets: du-coeur"),
        (["records", "check", "/nonexistent/file.jsonl"], "file.jsonl: cannot be read"),
    ],
)
def test_bad_choices_are_one_line_messages(argv, needle, capsys):
    code = main(argv) if argv[0] != "records" else main(argv)
    err = capsys.readouterr()
    text = err.err + err.out
    assert needle in text
    assert "Traceback" not in text
    if argv[0] != "records":
        assert code == 2
        assert len(err.err.strip().splitlines()) == 1


def test_odds_are_exact_fractions(capsys):
    assert main(["odds", "--ruleset", "parlett", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    five = next(r for r in rows if r["players"] == 5)
    from fractions import Fraction
    from math import comb

    ie = sum((-1) ** (k + 1) * comb(13, k) * comb(52 - 4 * k, 12 - 4 * k) for k in range(1, 4))
    assert Fraction(five["table_mournival"]) == Fraction(ie, comb(52, 12))
    assert main(["odds"]) == 0
    assert "table" in capsys.readouterr().out
