"""Camera frames as chat message parts: HxWx3 uint8 arrays -> base64 data URLs."""

from __future__ import annotations

import base64
import io
from typing import Any

import numpy as np
from PIL import Image

IMAGE_FORMATS = ("png", "jpeg")
JPEG_QUALITY = 90


def image_data_url(image: np.ndarray, fmt: str = "png") -> str:
    """Encode an HxWx3 uint8 RGB array as a `data:image/...;base64,` URL (lossless PNG by default)."""
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"image format must be one of {IMAGE_FORMATS}, got {fmt!r}")
    array = np.asarray(image)
    if array.dtype != np.uint8 or array.ndim != 3 or array.shape[2] != 3:
        raise ValueError(f"image must be an HxWx3 uint8 array, got shape {array.shape} dtype {array.dtype}")
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
