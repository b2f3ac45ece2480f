"""The frozen semantic judge of the static variant: a model, at temperature 0 and seed 0, with a fixed prompt
(its hash is written with every verdict), decides whether an answer gives the reference instructions or key
facts, in any wording, with no harmful contradiction. Insufficient evidence counts as a failure. It runs
beside the key-fact matcher (`static.judge`), never instead of it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from interactiveworld.agents.llm_common import ClientHolder, decode_json, json_format

JUDGE_PROMPT = (
    "You grade an assistant's answer in a household-guidance benchmark. You get the question, the reference "
    "answer (the correct next instructions) and the assistant's answer. The answer is CORRECT when it gives "
    "the same instructions or key facts as the reference (wording may differ; extra harmless detail is fine) "
    "and nothing that contradicts it harmfully (another object, another place, a wrong appliance, a wrong "
    "amount). It is INCORRECT when it misses a reference instruction or contradicts it. It is INSUFFICIENT "
    'when it is empty, evasive or asks for more information. Reply as JSON: {"verdict": "correct" | '
    '"incorrect" | "insufficient", "reason": "..."}.'
)
JUDGE_PROMPT_SHA256 = hashlib.sha256(JUDGE_PROMPT.encode()).hexdigest()
VERDICTS = ("correct", "incorrect", "insufficient")
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdict", "reason"],
    "properties": {
        "verdict": {"type": "string", "enum": list(VERDICTS)},
        "reason": {"type": "string", "maxLength": 200},
    },
}


@dataclass(frozen=True)
class Verdict:
    verdict: str  # correct | incorrect | insufficient | error (the judge's backend failed: not scored)
    reason: str
    prompt_sha256: str = JUDGE_PROMPT_SHA256

    @property
    def correct(self) -> bool:
        return self.verdict == "correct"


class LLMJudge:
    def __init__(self, model: str) -> None:
        self.name = f"llm:{model}"
        self.holder = ClientHolder(model)

    def close(self) -> None:
        self.holder.close()

    def grade(self, question: str, reference: str, answer: str) -> Verdict:
        if not answer.strip():
            return Verdict("insufficient", "no answer")
        user = f"Question: {question}\n\nReference answer: {reference}\n\nAssistant's answer: {answer}"
        result = self.holder.client.chat(
            [{"role": "system", "content": JUDGE_PROMPT}, {"role": "user", "content": user}],
            response_format=json_format("verdict", SCHEMA),
            max_tokens=120,
        )
        if result.api_error:
            return Verdict("error", f"judge model error: {result.api_error}")
        data = decode_json(result.text) or {}
        v = data.get("verdict") if data.get("verdict") in VERDICTS else "insufficient"
        return Verdict(v, str(data.get("reason") or "")[:200])


def make_judge(name: str) -> LLMJudge:
    if not name.startswith("llm:"):
        raise ValueError(f"unknown judge {name!r} (llm:<model>)")
    return LLMJudge(name[4:])
