"""The prompt for each modality, and the LLM brain with the real embedded local model."""

from __future__ import annotations

import base64
import io
import json
import math

import numpy as np
import pytest
from PIL import Image

from reacthuman.brain import LLMBrain, Observation, TrackSample, build_messages, make_brain, state_text
from reacthuman.brain.schema import plan_to_dict
from reacthuman.llm import make_client
from reacthuman.plan.plan import Plan, Pose2D

TIMES = (0.0, 0.15, 0.3, 0.45, 0.6)
VIEWS = ("egocentric", "closeup", "overhead")
TRUTH = {"correct_action": "DODGE", "impact_point": (9.87, 6.54, 1.0), "time_to_floor_s": 0.77, "dangerous": True}


def observation(with_images: bool = True) -> Observation:
    rng = np.random.default_rng(3)
    images = (
        {v: [rng.integers(0, 255, (24, 32, 3), dtype=np.uint8) for _ in TIMES] for v in VIEWS} if with_images else {}
    )
    track = tuple(TrackSample(t, (1.1, -0.2, 1.6 - 4.905 * t * t), (0.0, 0.0, -9.81 * t)) for t in TIMES)
    return Observation(
        "object_drop-0042-secret",
        TIMES,
        images,
        track,
        "a blue ceramic mug",
        "living room",
        Pose2D(2.5, -1.0, math.radians(90)),
        TRUTH,
    )


def all_text(messages) -> str:
    chunks = []
    for m in messages:
        content = m["content"]
        chunks += [content] if isinstance(content, str) else [p["text"] for p in content if p["type"] == "text"]
    return "\n".join(chunks)


def test_state_text_tells_what_the_cameras_show():
    text = state_text(observation())
    assert "a blue ceramic mug" in text
    assert "living room" in text
    assert "t=0.45 s: position (+1.10, -0.20, +0.61)" in text
    assert "Time froze at t=0.60 s" in text
    assert "x=2.50 m, y=-1.00 m, facing 90 deg" in text


@pytest.mark.parametrize("modality", ["images", "state_text", "both"])
def test_prompt_never_contains_truth_or_scene_id(modality):
    text = all_text(build_messages(observation(), modality))
    for leak in ("secret", "object_drop", "DODGE", "9.87", "0.77", "dangerous"):
        assert leak not in text
    assert "Time is frozen now" in text


def test_the_prompt_states_the_hands_workspace_the_ground_truth_judges_catches_with():
    from reacthuman.scenes.envelope import default_config as default_envelope

    body, text = default_envelope(), all_text(build_messages(observation(), "state_text"))
    stated = (
        f"up to about {body.arm_reach_m:g} m from the vertical line through your pelvis",
        f"not closer than about {body.min_reach_m:g} m",
        f"at heights from {body.crouch_hand_m:g} to {body.highest_hand_m:g} m",
        f"down to {body.lowest_hand_m:g} m only in a deep crouch and within about {body.crouch_reach_m:g} m",
        f"about {body.arm_travel_s:g} s to get there from rest",
    )
    assert all(figure in text for figure in stated)
    assert "shoulder" not in text  # the reach is told in the plan's own frame


def test_images_modality_sends_every_frame_of_every_view_as_png():
    messages = build_messages(observation(), "images")
    parts = messages[1]["content"]
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == len(VIEWS) * len(TIMES)
    url = images[0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    decoded = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))
    assert np.array_equal(decoded, observation().images["egocentric"][0])
    text = all_text(messages)
    assert "a blue ceramic mug" not in text  # the look comes from the pixels in this modality
    assert "View 'overhead'" in text


def test_both_modality_adds_the_state_text():
    assert "a blue ceramic mug" in all_text(build_messages(observation(), "both"))


def test_bad_modality_and_missing_frames_are_refused():
    with pytest.raises(ValueError, match="modality must be one of"):
        build_messages(observation(), "video")
    with pytest.raises(ValueError, match="needs camera frames"):
        build_messages(observation(with_images=False), "images")


def test_observation_rejects_frame_count_mismatch():
    with pytest.raises(ValueError, match="frames for 5 frame times"):
        Observation("s", TIMES, {"egocentric": [np.zeros((4, 4, 3), np.uint8)]}, (), "x", "room", Pose2D(0, 0, 0))


@pytest.fixture(scope="module")
def local_brain():
    with make_brain("local") as brain:  # the default asks for images; the text-only model falls back
        yield brain


def test_local_brain_commits_a_decision(local_brain):
    decision = local_brain.plan(observation())
    assert decision.api_error is None
    assert decision.brain == "local"
    assert decision.modality == "state_text"
    assert local_brain.modality_note.startswith(
        "is text-only (its server reports a text-only model (llama.cpp /props))"
    )
    assert decision.raw_text.strip()
    assert decision.prompt_tokens > 100
    assert decision.completion_tokens > 0
    if decision.parse_ok:
        assert isinstance(decision.plan, Plan)
        assert decision.parse_error is None
        assert plan_to_dict(decision.plan)["walking_cmd"] == list(decision.plan.walking_cmd)
    else:
        assert decision.plan is None
        assert decision.parse_error
    json.dumps(decision.to_dict())  # the record is JSON-ready either way


def test_local_model_refuses_images_modality_clearly_without_fallback():
    with pytest.raises(ValueError, match="text-only .* use modality 'state_text'"):
        make_brain("local", modality="images", text_only_fallback=False)


def test_api_failure_becomes_a_recorded_decision():
    client = make_client("openai-compatible:m@http://127.0.0.1:9/v1", max_retries=1, backoff_s=0.01, vision=False)
    with LLMBrain(client, modality="state_text", name="unreachable") as brain:
        decision = brain.plan(observation())
    assert decision.plan is None
    assert not decision.parse_ok
    assert decision.api_error.startswith("connection failed")
    assert decision.retries == 1


def _first_token_logprobs(base_url: str, messages: list[dict], tokens: int) -> list[tuple[str, float]]:
    import httpx

    body = {"model": "local", "messages": messages, "temperature": 0.0, "max_tokens": tokens, "logprobs": True}
    reply = httpx.post(base_url + "/chat/completions", json=body, timeout=120.0).json()
    return [(entry["token"], entry["logprob"]) for entry in reply["choices"][0]["logprobs"]["content"]]


def test_the_local_model_answers_to_the_bit_the_same_on_one_thread_as_on_two(local_brain):
    """The local model's answers must not depend on the machine's thread count. With llama.cpp's flash
    attention on, a generated token's attention was summed per thread: behind the system prompt, one and two
    threads gave logprobs that differed in the last bits (and, over a whole answer, other greedy answers)."""
    from reacthuman.llm.local_server import LOCAL_GENERATION_THREADS, SHARED_SERVER, start_local_server

    system = build_messages(observation(with_images=False), "state_text")[0]  # about 640 tokens
    messages = [system, {"role": "user", "content": "A mug slides off the table 0.6 m ahead of you. Your plan?"}]
    assert LOCAL_GENERATION_THREADS == 1  # the served model (local_brain's server) generates on one thread
    served = _first_token_logprobs(SHARED_SERVER.acquire(), messages, tokens=16)
    SHARED_SERVER.release()
    server, base_url = start_local_server(generation_threads=2)
    try:
        on_two = _first_token_logprobs(base_url, messages, tokens=16)
    finally:
        del server
    assert len(served) == 16
    assert served == on_two
