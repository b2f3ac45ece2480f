"""Model clients for the whole suite (ReactHuman, PhysMent, InteractiveWorld): one OpenAI-compatible
chat client for OpenRouter, vLLM, Ollama, llama.cpp servers and the embedded local model.

    from reacthuman.llm import make_client
    with make_client("local") as client:            # or "gpt-5.5", "openai-compatible:<id>@<url>"
        result = client.chat([{"role": "user", "content": "hi"}])
        result.text, result.api_error
"""

from reacthuman.llm.client import ChatClient, ChatResult, make_client
from reacthuman.llm.images import has_image_parts, image_data_url, image_part, text_part
from reacthuman.core.presets import ModelPreset, preset_names, resolve_preset

__all__ = [
    "ChatClient",
    "ChatResult",
    "ModelPreset",
    "has_image_parts",
    "image_data_url",
    "image_part",
    "make_client",
    "preset_names",
    "resolve_preset",
    "text_part",
]
