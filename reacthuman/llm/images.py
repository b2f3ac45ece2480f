"""Camera frames as chat message parts: HxWx3 uint8 arrays -> base64 data URLs."""

from __future__ import annotations

import base64
import hashlib
import io
import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any

import numpy as np
from PIL import Image

IMAGE_FORMATS = ("png", "jpeg")
JPEG_QUALITY = 90
# Encoded frames by content: `reacthuman decide` sends every model the same frames of a scene, and PNG encoding is
# most of a decision's machine time (about 1 s of 15 frames at 640x360 here). Keyed by the pixels' digest, so a
# hit is the same bytes; bounded (about 0.4 MB a frame) to hold the frames of `decide`'s chunk of scenes
# (DECIDE_CHUNK_SCENES x 15 frames), which its models ask about in any order.
ENCODED_CACHE_FRAMES = 256
_encoded: "OrderedDict[tuple[str, tuple[int, ...], str], str]" = OrderedDict()
_encoding: "dict[tuple[str, tuple[int, ...], str], Future]" = {}  # frames being encoded now, by the same key
_encoded_lock = threading.Lock()


def image_data_url(image: np.ndarray, fmt: str = "png") -> str:
    """Encode an HxWx3 uint8 RGB array as a `data:image/...;base64,` URL (lossless PNG by default)."""
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"image format must be one of {IMAGE_FORMATS}, got {fmt!r}")
    array = np.asarray(image)
    if array.dtype != np.uint8 or array.ndim != 3 or array.shape[2] != 3:
        raise ValueError(f"image must be an HxWx3 uint8 array, got shape {array.shape} dtype {array.dtype}")
    key = (hashlib.sha256(np.ascontiguousarray(array).data).hexdigest(), array.shape, fmt)
    with _encoded_lock:
        if key in _encoded:
            _encoded.move_to_end(key)
            return _encoded[key]
        # one thread encodes a frame, the others asking for it meanwhile wait for its result: `decide` asks every
        # model about the same scene at once, and each encoding the frames itself cost 7x the work
        pending = _encoding.get(key)
        owner = pending is None
        if owner:
            pending = _encoding[key] = Future()
    if not owner:
        return pending.result()
    try:
        url = _encode(array, fmt)
    except BaseException as exc:
        with _encoded_lock:
            del _encoding[key]
        pending.set_exception(exc)
        raise
    with _encoded_lock:
        _encoded[key] = url
        del _encoding[key]
        while len(_encoded) > ENCODED_CACHE_FRAMES:
            _encoded.popitem(last=False)
    pending.set_result(url)
    return url


def clear_encoded_cache() -> None:
    """Forget every encoded frame (the benchmark times encoding from cold)."""
    with _encoded_lock:
        _encoded.clear()


def _encode(array: np.ndarray, fmt: str) -> str:
    buf = io.BytesIO()
    if fmt == "png":
        Image.fromarray(array).save(buf, format="PNG")
    else:
        Image.fromarray(array).save(buf, format="JPEG", quality=JPEG_QUALITY)
    return f"data:image/{fmt};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def image_part(image: np.ndarray, fmt: str = "png") -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": image_data_url(image, fmt)}}


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def has_image_parts(messages: list[dict[str, Any]]) -> bool:
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(p, dict) and p.get("type") == "image_url" for p in content):
            return True
    return False
