"""One way to name models on every command line of the suite: the `--models` grammar.

ReactHuman (`reacthuman eval`), PhysMent (`physment run`) and InteractiveWorld (`interactiveworld run`,
`matrix`, `static`, `ros-episode`) each used to spell a model differently (`--models NAME`, `--agent NAME`,
`--assistant llm:NAME`). They now share this grammar, so a name that works in one works in all three and a
typo fails the same way everywhere:
    MODELS  := ENTRY ("," ENTRY)*          entries are stripped; none may be empty or repeated
    ENTRY   := REFERENCE                   a reference agent of the system running it (e.g. oracle)
             | PRESET                      a preset name of config/models.yaml (e.g. local, gpt-5.5)
             | openai-compatible:<model_id>@<base_url>
             | llm:<PRESET or explicit>    deprecated alias of the same without `llm:` (logs a warning)
    A model (not a reference) may carry options: ENTRY?key=value&... with keys vision, api_key_env,
    max_tokens, temperature (reacthuman.core.presets.MODEL_OPTIONS); they are no part of its name.

A reference wins over a preset of the same name; `llm:` always means a model. Nothing here reaches a server
or reads an API key: parsing only checks that each entry names something that exists.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence
from reacthuman.core.presets import model_name
from reacthuman.core.presets import EXPLICIT_PREFIX, preset_names, resolve_preset

if TYPE_CHECKING:
    from reacthuman.core.presets import ModelPreset

LOG = logging.getLogger(__name__)

REFERENCE = "reference"
LLM = "llm"
DEPRECATED_PREFIX = "llm:"
EXPLICIT_FORM = "openai-compatible:<model_id>@<base_url>"


class ModelSpecError(ValueError):
    """A `--models` value that names nothing runnable; the message is one line naming the entry."""


@dataclass(frozen=True)
class ModelSpec:
    """One entry of `--models`: a reference agent, or a model with its resolved preset.

    `name` is the entry as given, less a deprecated `llm:` prefix and its `?options`: what ReactHuman's ledger
    and PhysMent's results record (InteractiveWorld's records keep spelling a model `llm:<name>`, as its older
    runs do). `entry` is the entry with its options: what builds the model's client in another process
    (`make_client(spec.entry)`); it names environment variables, never holds a key."""

    kind: str
    name: str
    preset: "ModelPreset | None" = None
    entry: str = ""

    def __post_init__(self) -> None:
        if not self.entry:
            object.__setattr__(self, "entry", self.name)
        self._check()

    def _check(self) -> None:
        if self.kind not in (REFERENCE, LLM):
            raise ValueError(f"ModelSpec.kind must be {REFERENCE!r} or {LLM!r}, got {self.kind!r}")
        if (self.kind == LLM) != (self.preset is not None):
            raise ValueError("ModelSpec: a model carries its preset, a reference carries none")

    @property
    def is_llm(self) -> bool:
        return self.kind == LLM


MODELS_LEAD = "comma-separated models, run one after another"


def models_help(references: Mapping[str, str], lead: str = MODELS_LEAD) -> str:
    """The `--help` text of `--models`: the same sentence in every CLI, ending with that system's references.
    Options that use the grammar for something else (InteractiveWorld's `--human`) change only the lead."""
    listed = "; ".join(f"{name}: {what}" for name, what in references.items()) or "none"
    return (
        f"{lead}. An entry is a reference agent of this system, a preset of config/models.yaml "
        f"(local = the embedded model, gpt-5.5, ...) or {EXPLICIT_FORM}. References here: {listed}"
    )


def parse_models(text: str, references: Mapping[str, str], option: str = "--models") -> list[ModelSpec]:
    """The specs of a comma-separated list, in order. Raises ModelSpecError (one line naming `option` and the
    entry) for an empty list, an empty or repeated entry, or an entry that is neither a reference nor a model."""
    if not text.strip():
        raise ModelSpecError(f"{option}: no model given ({_choices(references)})")
    specs = [_parse_entry(entry.strip(), text, references, option) for entry in text.split(",")]
    _reject_repeats(specs, option)
    return specs


def _parse_entry(entry: str, text: str, references: Mapping[str, str], option: str) -> ModelSpec:
    if not entry:
        raise ModelSpecError(f"{option} {text!r}: an empty entry (a doubled comma, or one at either end)")
    if entry.startswith(DEPRECATED_PREFIX):
        name = entry[len(DEPRECATED_PREFIX) :]
        LOG.warning("%s %r: the 'llm:' prefix is deprecated and will be removed; write %r", option, entry, name)
        return _model(name, entry, references, option)
    if entry in references:
        return ModelSpec(REFERENCE, entry)

    if model_name(entry) in references:
        raise ModelSpecError(f"{option}: {model_name(entry)!r} is a reference; it takes no options ({entry!r})")
    return _model(entry, entry, references, option)


def _model(full: str, entry: str, references: Mapping[str, str], option: str) -> ModelSpec:
    """The spec of a preset or explicit model (`full`: with its options); `entry` is what the user typed
    (named in every error)."""

    name = model_name(full)
    try:
        presets = preset_names()
    except (FileNotFoundError, ValueError) as exc:
        raise ModelSpecError(
            f"{option}: {entry!r} is not a reference ({', '.join(references) or 'none here'}) "
            f"and the model presets cannot be read: {exc}"
        ) from None
    if name not in presets and not name.startswith(EXPLICIT_PREFIX):
        raise ModelSpecError(f"{option}: unknown model {entry!r}: {_choices(references, presets)}")
    try:
        return ModelSpec(LLM, name, resolve_preset(full), full)
    except (FileNotFoundError, ValueError) as exc:  # a malformed explicit spec, or a preset with a bad field
        raise ModelSpecError(f"{option}: {exc}") from None  # presets.py's messages name the spec


def _choices(references: Mapping[str, str], presets: Sequence[str] | None = None) -> str:
    """What an entry may be, in one line: the system's references, the presets and the explicit form."""
    refs = ", ".join(references) or "none here"
    if presets is None:
        return f"give a reference ({refs}), a model preset or {EXPLICIT_FORM}"
    return f"not a reference ({refs}), a model preset ({', '.join(presets)}) or {EXPLICIT_FORM}"


def _reject_repeats(specs: Sequence[ModelSpec], option: str) -> None:
    seen: set[str] = set()
    for spec in specs:
        if spec.name in seen:
            raise ModelSpecError(f"{option}: {spec.name!r} is given twice")
        seen.add(spec.name)


@dataclass(frozen=True)
class ModelsOption:
    """A models option of one command (`--models`, `--human`, ...) with its deprecated spellings.

    The old flags stay accepted, hidden from `--help`, and log a warning, so existing scripts keep working
    for a release. When an alias may supply a required option, argparse cannot require the flag: `parse` does."""

    references: Mapping[str, str]
    flag: str = "--models"
    aliases: tuple[str, ...] = ()
    default: str | None = None
    required: bool = True
    help: str | None = None  # None: models_help(references), the shared wording

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Adds the flag (shown) and its aliases (hidden) to `parser`."""
        text = self.help if self.help is not None else models_help(self.references)
        plain_required = self.required and self.default is None and not self.aliases  # argparse can say it
        parser.add_argument(
            self.flag,
            dest=self.dest,
            default=None,
            required=plain_required,
            help=text + (f" (default: {self.default})" if self.default else ""),
        )
        for alias in self.aliases:
            parser.add_argument(alias, dest=self._alias_dest(alias), default=None, help=argparse.SUPPRESS)

    def text(self, args: argparse.Namespace) -> str | None:
        """The option's value: the flag's, else a deprecated alias's (with a warning), else the default."""
        given = {self.flag: getattr(args, self.dest)}
        given.update((alias, getattr(args, self._alias_dest(alias))) for alias in self.aliases)
        used = [flag for flag, value in given.items() if value is not None]
        if len(used) > 1:
            raise ModelSpecError(
                f"give {self.flag} once ({' and '.join(used[1:])}: deprecated spelling of {self.flag})"
            )
        if not used:
            return self.default
        if used[0] != self.flag:
            LOG.warning("%s is deprecated and will be removed; use %s", used[0], self.flag)
        return given[used[0]]

    def parse(self, args: argparse.Namespace) -> list[ModelSpec]:
        """The specs given on the command line ([] for an optional option not given); ModelSpecError else."""
        text = self.text(args)
        if text is None:
            if self.required:
                raise ModelSpecError(f"{self.flag} is required ({_choices(self.references)})")
            return []
        return parse_models(text, self.references, self.flag)

    def parse_one(self, args: argparse.Namespace) -> ModelSpec | None:
        """The single spec of an option that takes one model (None for an optional option not given)."""
        specs = self.parse(args)
        if len(specs) > 1:
            raise ModelSpecError(
                f"{self.flag} takes one model here, got {len(specs)}: {', '.join(s.name for s in specs)}"
            )
        return specs[0] if specs else None

    def _alias_dest(self, alias: str) -> str:
        return f"{self.dest}__deprecated_{alias.lstrip('-').replace('-', '_')}"
