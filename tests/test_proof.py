"""Certificates: df-pn's strategy written, and checked by replaying every defence with the
pure-Python rules (fepaper.search.reference.proofcheck); a certificate with one answer removed,
one winning turn changed to a losing one, a turn that is not a turn, or a damaged file, is refused
with what is wrong and where."""

import gzip
import json

import pytest

from fepaper.cli import main
from fepaper.game import Game
from fepaper.search.prooffile import ProofFileError, proof_name, read_proof, write_proof
from fepaper.search.reference.proofcheck import ProofError, verify_proof
from fepaper.search.solve import solve

WIN_1 = {"width": 2, "height": 4, "middle_line": True, "bounce": "optional"}  # first player wins
WIN_2 = {"width": 2, "height": 6, "middle_line": False, "bounce": "mandatory"}  # second player wins


def _certificate(tmp_path, rules, records=None):
    game = Game(rules)
    result = solve(game, method="dfpn", proof=True)
    assert result.details["proof_complete"]
    records = result.details["proof"] if records is None else records
    return write_proof(tmp_path / proof_name(rules), rules, "", result.details["winner"], game.board.n_edges,
                       records), result


@pytest.mark.parametrize("rules", [WIN_1, WIN_2], ids=["first", "second"])
def test_a_certificate_written_by_dfpn_is_verified(tmp_path, rules):
    path, result = _certificate(tmp_path, rules)
    summary = verify_proof(path)
    assert summary["winner"] == result.details["winner"]
    assert summary["winner_positions"] + summary["unused_records"] == len(result.details["proof"])
    assert summary["loser_positions"] > 0
    header, strategy = read_proof(path)
    assert header["records"] == len(strategy) == len(result.details["proof"])


def test_one_answer_to_a_defence_removed_is_refused(tmp_path):
    path, result = _certificate(tmp_path, WIN_2)
    records = result.details["proof"]
    for k in range(len(records)):  # some answer is reached by a defence: removing it must fail
        cut, _ = _certificate(tmp_path, WIN_2, records[:k] + records[k + 1:])
        try:
            verify_proof(cut)
        except ProofError as exc:
            assert "no turn of the winner (player 2) for this position" in str(exc)
            assert "after " in str(exc)
            return
    pytest.fail("no record of the strategy was needed")


def test_a_winning_turn_changed_to_a_losing_one_is_refused(tmp_path):
    path, result = _certificate(tmp_path, WIN_1)
    records = result.details["proof"]
    root = [r for r in records if r[1] == Game(WIN_1).board.kickoff]
    assert len(root) == 1
    losing = sorted(set(t.steps for t in Game(WIN_1).turns()) - set(solve(Game(WIN_1)).details["best"]))
    assert losing
    forged = [r if r is not root[0] else (r[0], r[1], r[2], losing[0]) for r in records]
    bad, _ = _certificate(tmp_path, WIN_1, forged)
    with pytest.raises(ProofError, match=r"the game ends won by player 2, not the winner|no turn of the winner"):
        verify_proof(bad)


def test_a_turn_that_is_not_a_turn_is_refused(tmp_path):
    path, result = _certificate(tmp_path, WIN_1)
    forged = [(r[0], r[1], r[2], "44444") for r in result.details["proof"]]
    bad, _ = _certificate(tmp_path, WIN_1, forged)
    with pytest.raises(ProofError, match="at the position proven: the winner's turn 44444 is not a turn"):
        verify_proof(bad)


def test_a_damaged_file_is_refused(tmp_path):
    path, _ = _certificate(tmp_path, WIN_1)
    text = gzip.decompress(path.read_bytes()).decode()
    cut = tmp_path / "cut.proof.gz"
    cut.write_bytes(gzip.compress("\n".join(text.split("\n")[:-2]).encode() + b"\n"))
    with pytest.raises(ProofFileError, match="records, the file holds"):
        verify_proof(cut)
    plain = tmp_path / "plain.proof.gz"
    plain.write_bytes(text.encode())
    with pytest.raises(ProofFileError, match="not a gzip file"):
        verify_proof(plain)
    wide = tmp_path / "wide.proof.gz"
    lines = text.split("\n")
    lines[1] = "f" * 300 + lines[1][lines[1].index(" "):]  # 1,200 edges on a board of far fewer
    wide.write_bytes(gzip.compress("\n".join(lines).encode()))
    with pytest.raises(ProofFileError, match="line 2: marked edges beyond the header's"):
        verify_proof(wide)
    odd = tmp_path / "odd.proof.gz"
    odd.write_bytes(gzip.compress(text.replace('"winner": 1', '"winner": 3').encode()))
    with pytest.raises(ProofFileError, match="winner must be 1 or 2, got 3"):
        verify_proof(odd)


def test_the_solve_and_verify_proof_commands(tmp_path, capsys):
    out, proofs = tmp_path / "solved.csv", tmp_path / "proofs"
    proofs.mkdir()
    rules = '{"width": 2, "height": 4, "middle_line": true}'
    assert main(["solve", "--rules", rules, "--method", "dfpn", "--out", str(out), "--proofs", str(proofs),
                 "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["method"] == "dfpn" and row["value"] == "first player wins" and row["certificate_bytes"] > 0
    path = proofs / row["certificate"]
    assert path.name == proof_name(json.loads(rules))
    assert main(["verify-proof", str(path)]) == 0
    assert "proven, player 1 wins" in capsys.readouterr().out
    header = gzip.decompress(path.read_bytes()).decode().split("\n")
    path.write_bytes(gzip.compress("\n".join(header[:1] + header[2:]).encode()))
    assert main(["verify-proof", str(path)]) == 1
    assert "refused: certificate" in capsys.readouterr().out
    assert main(["solve", "--rules", rules, "--method", "dfpn", "--out", str(out), "--proofs",
                 str(tmp_path / "none")]) == 2
    assert "--proofs" in capsys.readouterr().err


def test_first_win_ends_at_one_winning_turn_and_writes_its_certificate(tmp_path, capsys):
    out, proofs = tmp_path / "solved.csv", tmp_path / "proofs"
    proofs.mkdir()
    rules = '{"width": 2, "height": 6, "middle_line": true, "bounce": "optional"}'
    assert main(["solve", "--rules", rules, "--method", "dfpn", "--first-win", "--out", str(out), "--proofs",
                 str(proofs), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["value"] == "first player wins" and row["certificate_bytes"] > 0
    assert len(row["winning_first_turns"].split()) == 1 and row["all_winning_turns"] is False
    assert main(["verify-proof", str(proofs / row["certificate"])]) == 0
