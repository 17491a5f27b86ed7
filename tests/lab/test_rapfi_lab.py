"""The lab's Rapfi build script (gomoku_lab.rapfi): it refuses a folder that is not
Rapfi's source with a clear error and builds nothing, and it makes the networks
repository's example config classical. No test needs Rapfi itself: the source trees here
are a few marker files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gomoku_lab import rapfi

REPO = Path(__file__).resolve().parents[2]

EXAMPLE_CONFIG = """[requirement]
min_version = [0,43,1]

[general]
default_thread_num = 1
coord_conversion_mode = "none"

[model]
binary_file = "model210901.bin"


[model.evaluator]
type = "mix9svq"
draw_ratio = 1.0
[[model.evaluator.weights]]
weight_file = "mix9svqfreestyle_bsmix.bin.lz4"
[[model.evaluator.weights]]
weight_file_black = "mix9svqrenju_bs15_black.bin.lz4"


[search]
aspiration_window = true
"""


def fake_rapfi(root: Path, project: str = "rapfi") -> Path:
    """A tree with the files find_source looks for (the repository layout)."""
    src = root / "Rapfi"
    for marker in rapfi.SOURCE_MARKERS:
        (src / marker).parent.mkdir(parents=True, exist_ok=True)
        (src / marker).write_text("// marker\n")
    (src / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION 3.18)\nproject({project})\n"
    )
    (src / "core").mkdir(exist_ok=True)
    (src / "core" / "version.cpp").write_text(
        "#define RAPFI_MAJOR_VER    0\n"
        "#define RAPFI_MINOR_VER    43\n"
        "#define RAPFI_REVISION_VER 2\n"
    )
    return root


def fake_networks(root: Path) -> Path:
    (root / "config-example").mkdir(parents=True)
    (root / "config-example" / "config.toml").write_text(EXAMPLE_CONFIG)
    (root / "classical").mkdir()
    for name in ("model210901.bin", "model220723.bin"):
        (root / "classical" / name).write_bytes(b"\0")
    return root


def test_accepts_the_repository_root_and_its_rapfi_folder(tmp_path: Path) -> None:
    root = fake_rapfi(tmp_path / "rapfi")
    for folder in (root, root / "Rapfi"):
        src = rapfi.find_source(folder)
        assert src.cmake_dir == root / "Rapfi"
        assert src.version == "0.43.2"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p, "is not Rapfi's source"),  # an empty folder
        (lambda p: p / "missing", "no such folder"),
        (lambda p: fake_rapfi(p, project="stockfish"), "does not declare project(rapfi)"),
    ],
)
def test_refuses_what_is_not_rapfi(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(rapfi.RapfiError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rapfi.find_source(make(tmp_path))


def test_refuses_a_tree_missing_the_engine_files(tmp_path: Path) -> None:
    root = fake_rapfi(tmp_path)
    (root / "Rapfi" / "command" / "gomocup.cpp").unlink()
    with pytest.raises(rapfi.RapfiError, match="missing command/gomocup.cpp"):
        rapfi.find_source(root)


def test_build_of_this_repository_fails_clearly_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Our own repository (it has a Python project, no Rapfi) given as the source: exit
    status 2, an error naming the folder, and the output folder never created."""
    out = tmp_path / "out"
    networks = fake_networks(tmp_path / "networks")
    status = rapfi.main(
        ["build", "--source", str(REPO), "--networks", str(networks), "--out", str(out)]
    )
    assert status == 2
    assert f"error: {REPO} is not Rapfi's source" in capsys.readouterr().err
    assert not out.exists()


def test_networks_folder_is_checked_before_building(tmp_path: Path) -> None:
    source = fake_rapfi(tmp_path / "rapfi")
    with pytest.raises(rapfi.RapfiError, match="is not rapfi-networks"):
        rapfi.build(source, tmp_path / "rapfi" / "Networks", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_newest_classical_model_is_chosen(tmp_path: Path) -> None:
    config, model = rapfi.find_networks(fake_networks(tmp_path))
    assert config.name == "config.toml"
    assert model.name == "model220723.bin"


def test_classical_config_drops_the_nnue_evaluator() -> None:
    text = rapfi.classical_config(EXAMPLE_CONFIG, "model220723.bin")
    assert "evaluator" not in text and "mix9svq" not in text
    assert 'binary_file = "model220723.bin"' in text
    assert "[search]" in text and "aspiration_window = true" in text  # the rest is kept
    assert "default_thread_num = 1" in text


def test_classical_config_refuses_more_than_one_thread() -> None:
    with pytest.raises(rapfi.RapfiError, match="default_thread_num = 1"):
        rapfi.classical_config(
            EXAMPLE_CONFIG.replace("default_thread_num = 1", "default_thread_num = 0"), "m.bin"
        )


def test_cmake_options_are_explicit_and_single_threaded() -> None:
    options = rapfi.cmake_options("avx2")
    assert "-DCMAKE_BUILD_TYPE=Release" in options
    assert "-DNO_MULTI_THREADING=ON" in options
    assert "-DUSE_AVX2=ON" in options and "-DUSE_AVX512=OFF" in options
    assert "-DUSE_AVX2=OFF" in rapfi.cmake_options("sse")
    with pytest.raises(rapfi.RapfiError):
        rapfi.cmake_options("avx512")
