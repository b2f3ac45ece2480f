"""Model presets (config/models.yaml) and the explicit `openai-compatible:` spec.

A model is named by
- a preset name from config/models.yaml (`local`, `gpt-5.5`, `vllm`, ...), or
- `openai-compatible:<model_id>@<base_url>`, e.g. `openai-compatible:Qwen/Qwen3-VL-8B@http://127.0.0.1:8000/v1`
  (any OpenAI-compatible server),
either followed by command-line options after a `?`, joined by `&` (MODEL_OPTIONS):
`openai-compatible:myvlm@http://host:8000/v1?vision=true&api_key_env=MY_KEY&max_tokens=4096&temperature=0`.
The options are no part of the model's name (`ModelPreset.name`, what ledgers record): `split_model_options`.
Keyword overrides replace preset fields (`make_client("gpt-5.5", temperature=0.7)`) and win over options.
The file is looked up in $REACTHUMAN_MODELS_YAML, then the source tree's config/, then
<prefix>/share/reacthuman/config/ for sys.prefix and each $AMENT_PREFIX_PATH entry.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

PROVIDERS = ("openrouter", "vllm", "ollama", "llamacpp", "openai-compatible", "embedded")
EXPLICIT_PREFIX = "openai-compatible:"
MODELS_YAML_ENV = "REACTHUMAN_MODELS_YAML"
OPTIONS_SEP = "?"
# The options a model entry may carry on the command line, and what each must look like. The key itself
# never: it stays in the environment, named by api_key_env.
MODEL_OPTIONS = {
    "vision": "true or false (whether the model takes images)",
    "api_key_env": "the NAME of the environment variable holding the API key",
    "max_tokens": "an integer >= 1 (the reply's token limit)",
    "temperature": "a number in [0, 2]",
}
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


@dataclass(frozen=True)
class ModelPreset:
    name: str
    provider: str
    model_id: str
    base_url: str = ""
    api_key_env: str | None = None
    key_required: bool = False
    vision: bool | None = None
    json_schema: bool = False
    compact_json: bool = False  # llama.cpp servers: send schemas as a compact-JSON grammar (llm/grammar.py)
    temperature: float = 0.0
    max_tokens: int = 1024
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise ValueError(f"model preset '{self.name}': provider must be one of {PROVIDERS}, got {self.provider!r}")
        if not self.model_id:
            raise ValueError(f"model preset '{self.name}': model_id is empty")
        if self.provider != "embedded" and not self.base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"model preset '{self.name}': base_url must start with http:// or https://, got {self.base_url!r}"
            )
        if self.api_key_env is not None and (not self.api_key_env or not self.api_key_env.replace("_", "").isalnum()):
            raise ValueError(
                f"model preset '{self.name}': api_key_env must be an environment variable NAME, got a non-name"
            )
        if self.compact_json and self.provider not in ("embedded", "llamacpp", "openai-compatible"):
            raise ValueError(
                f"model preset '{self.name}': compact_json needs a llama.cpp server (provider embedded, llamacpp or openai-compatible), not {self.provider}"
            )
        if not (math.isfinite(self.temperature) and 0.0 <= self.temperature <= 2.0):
            raise ValueError(f"model preset '{self.name}': temperature must be in [0, 2], got {self.temperature}")
        for field_name in ("max_tokens",):
            if int(getattr(self, field_name)) < 1:
                raise ValueError(f"model preset '{self.name}': {field_name} must be >= 1")
        if self.max_retries < 0:
            raise ValueError(f"model preset '{self.name}': max_retries must be >= 0")
        for field_name in ("timeout_s", "backoff_s", "backoff_max_s"):
            value = getattr(self, field_name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"model preset '{self.name}': {field_name} must be > 0, got {value}")


def models_yaml_path() -> Path:
    """Where config/models.yaml is read from (see the module docstring); raises if nowhere."""
    if os.environ.get(MODELS_YAML_ENV):
        chosen = Path(os.environ[MODELS_YAML_ENV])
        if not chosen.is_file():
            raise FileNotFoundError(f"${MODELS_YAML_ENV} names {chosen}, which is not a file")
        return chosen
    candidates = []
    candidates.append(Path(__file__).resolve().parents[2] / "config" / "models.yaml")
    # Installed: setup.py puts config/*.yaml in <prefix>/share/reacthuman/config (pip prefix or colcon install).
    prefixes = [sys.prefix, *filter(None, os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep))]
    candidates += [Path(p) / "share" / "reacthuman" / "config" / "models.yaml" for p in prefixes]
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(f"models.yaml not found (looked in: {', '.join(str(p) for p in candidates)})")


def _load_yaml(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict) or not isinstance(data.get("presets"), dict):
        raise ValueError(f"{path}: expected a mapping with a 'presets' mapping")
    return data


_FIELDS = {f.name for f in dataclasses.fields(ModelPreset)}


def _build(name: str, fields: dict[str, Any], data: dict[str, Any], overrides: dict[str, Any]) -> ModelPreset:
    unknown = sorted(set(fields) - _FIELDS) + sorted(set(overrides) - _FIELDS)
    if unknown:
        raise ValueError(
            f"model '{name}': unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(_FIELDS - {'name'}))})"
        )
    merged: dict[str, Any] = dict(data.get("defaults") or {})
    provider = overrides.get("provider", fields.get("provider"))
    merged.update((data.get("providers") or {}).get(provider, {}) or {})
    merged.update(fields)
    merged.update(overrides)
    merged["name"] = name
    return ModelPreset(**merged)


def split_model_options(entry: str) -> tuple[str, dict[str, Any]]:
    """(the model's name, its options as preset fields) of an entry `NAME?key=value&...`; ValueError (one line
    naming the entry and the option) for an unknown, repeated, empty or malformed option."""
    name, sep, query = entry.partition(OPTIONS_SEP)
    if not sep:
        return entry, {}
    if not name:
        raise ValueError(f"model {entry!r}: no model before '{OPTIONS_SEP}'")
    options: dict[str, Any] = {}
    for item in query.split("&"):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key == "api_key":
            raise ValueError(
                f"model {name!r}: option api_key is refused (a key on the command line reaches shell "
                "histories and process lists): put it in an environment variable and give api_key_env=NAME"
            )
        if key not in MODEL_OPTIONS:
            raise ValueError(f"model {name!r}: unknown option {key!r} (options: {', '.join(MODEL_OPTIONS)})")
        if not eq or not value:
            raise ValueError(f"model {name!r}: option {key} needs a value: {key}=<{MODEL_OPTIONS[key]}>")
        if key in options:
            raise ValueError(f"model {name!r}: option {key} is given twice")
        options[key] = _option_value(name, key, value)
    return name, options


def _option_value(name: str, key: str, value: str) -> Any:
    shown = "" if key == "api_key_env" else f"={value!r}"  # a key pasted in place of its variable's name stays unshown
    bad = ValueError(f"model {name!r}: option {key}{shown} is not {MODEL_OPTIONS[key]}")
    if key == "vision":
        if value.lower() not in _TRUE + _FALSE:
            raise bad
        return value.lower() in _TRUE
    if key == "max_tokens":
        if not value.isdigit() or int(value) < 1:
            raise bad
        return int(value)
    if key == "temperature":
        try:
            number = float(value)
        except ValueError:
            raise bad from None
        if not (math.isfinite(number) and 0.0 <= number <= 2.0):
            raise bad
        return number
    if not value.replace("_", "").isalnum():  # api_key_env
        raise bad
    return value


def model_name(entry: str) -> str:
    """The model an entry names, without its options: what ledgers, folders and reports record."""
    return entry.partition(OPTIONS_SEP)[0]


def preset_names() -> list[str]:
    return sorted(_load_yaml(models_yaml_path())["presets"])


def resolve_preset(model: str, **overrides: Any) -> ModelPreset:
    """The ModelPreset for a preset name or an `openai-compatible:<model_id>@<base_url>` spec, each with
    optional `?options` (MODEL_OPTIONS), then keyword overrides."""
    model, options = split_model_options(model)
    if "api_key_env" in options:  # a variable named on the command line must hold the key
        options["key_required"] = True
    overrides = {**options, **overrides}
    data = _load_yaml(models_yaml_path())
    if model.startswith(EXPLICIT_PREFIX):
        body = model[len(EXPLICIT_PREFIX) :]
        model_id, sep, base_url = body.partition("@")
        if not sep or not model_id or not base_url:
            raise ValueError(f"model spec {model!r}: expected '{EXPLICIT_PREFIX}<model_id>@<base_url>'")
        fields = {"provider": "openai-compatible", "model_id": model_id, "base_url": base_url.rstrip("/")}
        return _build(model, fields, data, overrides)
    presets = data["presets"]
    if model not in presets:
        raise ValueError(
            f"unknown model {model!r}: not a preset ({', '.join(sorted(presets))}) nor '{EXPLICIT_PREFIX}<model_id>@<base_url>'"
        )
    return _build(model, dict(presets[model] or {}), data, overrides)
