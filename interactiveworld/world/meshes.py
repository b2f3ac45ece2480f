"""Textured meshes for household objects, from the installed Debian `sweethome3d-furniture` catalogue, drawn
over the objects' primitives (reacthuman's catalogue loader and mesh cache prepare the files).

The physics stays the primitive: the mesh geoms have no mass and no contacts (contype = conaffinity = 0),
so trajectories, regions and digests are those of the primitive world, bit for bit. The primitive moves to
geom group `objects.PROXY_GROUP`, which the renderer does not draw; the eyes' rays meet it and never the
mesh (world.visibility leaves `MESH_GROUP` out), so what the human sees is the same with or without meshes.
Each model is scaled uniformly so that its real proportions fit the object's size (along the axes in
`fit`) and stood on the primitive's bottom; its materials are tinted with the object's colour, so a red mug
stays red and look-alikes stay apart. Objects whose catalogue has no faithful model (a can, a wallet, an
egg, a cloth, a pot, a lidded box, a juice carton: the only carton model is printed "Milk") and objects
with writing on them (their label texture is the point) keep their primitives.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import quoteattr

from reacthuman.scenes.builders import quat_axis_angle
from reacthuman.scenes.furniture import PACKAGE, get_model
from reacthuman.scenes.meshes import MeshPart, prepared_parts
from reacthuman.scenes.spec import VisualMeshSpec

from interactiveworld.world.objects import MESH_GROUP


@dataclass(frozen=True)
class ObjectMesh:
    key: str  # reacthuman.scenes.furniture key: "<archive stem>#<catalogue id>"
    quarter_turns_z: int = 0  # the model turned about z when its long side runs along the other axis
    fit: tuple[int, ...] = (0, 1, 2)  # axes whose size ratios (physical / real) set the uniform scale


_C0, _BY, _KL, _SC = "BlendSwap-CC-0#", "BlendSwap-CC-BY#", "KatorLegaz#", "Scopia#"
OBJECT_MESHES: dict[str, ObjectMesh] = {
    "mug": ObjectMesh(_KL + "coffee-mug", fit=(2,)),  # its handle sticks out beyond the cylinder
    "cup": ObjectMesh(_BY + "coffee_cup", fit=(2,)),
    "bottle": ObjectMesh(_KL + "red-wine-bottle-01", fit=(2,)),
    "kettle": ObjectMesh(_BY + "espressokettle", fit=(2,)),
    "milk": ObjectMesh(_C0 + "tetrapak", fit=(2,)),  # printed "Milk": not for juice
    "plate": ObjectMesh(_KL + "bread-plate", fit=(0, 1)),
    "keys": ObjectMesh(_SC + "keys", fit=(0, 1)),
    "glasses": ObjectMesh(_SC + "glasses", fit=(0,)),
    "phone": ObjectMesh(_BY + "mobile", fit=(0, 1)),
    "remote": ObjectMesh(_SC + "tv-remote-control", fit=(0, 1)),
    "book": ObjectMesh(_BY + "book", quarter_turns_z=1, fit=(0, 1)),
}


def physical_extent_m(shape: str, size: tuple[float, ...]) -> tuple[float, float, float]:
    if shape == "cylinder":
        return (2 * size[0], 2 * size[0], 2 * size[1])
    return (2 * size[0], 2 * size[1], 2 * size[2])


def has_mesh(category: str, text: str) -> bool:
    return category in OBJECT_MESHES and not text


@lru_cache(maxsize=None)
def visual_of(category: str, shape: str, size: tuple[float, ...]) -> VisualMeshSpec:
    """Where the category's model sits in the object's body frame: scaled to fit, standing on its bottom."""
    choice = OBJECT_MESHES[category]
    model = get_model(choice.key)
    size_m = tuple(round(v / 100.0, 6) for v in model.size_cm)
    turned = size_m if choice.quarter_turns_z % 2 == 0 else (size_m[1], size_m[0], size_m[2])
    physical = physical_extent_m(shape, size)
    scale = statistics.median(physical[i] / turned[i] for i in choice.fit)
    quat = tuple(round(v, 12) for v in quat_axis_angle((0.0, 0.0, 1.0), choice.quarter_turns_z * 1.5707963267948966))
    bottom_z = -physical[2] / 2 + turned[2] * scale / 2
    return VisualMeshSpec(
        package=PACKAGE,
        archive=model.archive,
        member=model.member,
        catalog_id=model.catalog_id,
        name=model.name,
        licence=model.licence,
        creator=model.creator,
        size_m=size_m,  # type: ignore[arg-type]
        model_rotation=model.model_rotation,
        quat=quat,
        scale=round(scale, 6),  # type: ignore[arg-type]
        pos=(0.0, 0.0, round(bottom_z, 6)),
    )


def _parts(category: str, shape: str, size: tuple[float, ...]) -> tuple[MeshPart, ...]:
    return prepared_parts(visual_of(category, shape, size))


def _tint(part: MeshPart, colour_rgba: str) -> str:
    r, g, b = (float(v) for v in colour_rgba.split()[:3])
    pr, pg, pb, pa = part.rgba
    return f"{pr * r:.4f} {pg * g:.4f} {pb * b:.4f} {pa:.4f}"


def assets_xml(meshed: list[tuple[str, str, str, tuple[float, ...]]], colours_rgba: dict[str, str]) -> str:
    """<asset> entries for (category, colour, shape, size) looks: one mesh and texture per model part, one
    tinted material per colour. Empty when nothing is meshed."""
    out: list[str] = []
    done_parts: set[str] = set()
    for category, colour, shape, size in sorted(set(meshed)):
        for i, part in enumerate(_parts(category, shape, size)):
            if category not in done_parts:
                out.append(f'<mesh name="V:{category}:{i}" file={quoteattr(part.obj_path)} inertia="shell"/>')
                if part.texture_png:
                    out.append(f'<texture name="VT:{category}:{i}" type="2d" file={quoteattr(part.texture_png)}/>')
            texture = f' texture="VT:{category}:{i}"' if part.texture_png else ""
            out.append(
                f'<material name="VM:{category}:{colour}:{i}"{texture} rgba="{_tint(part, colours_rgba[colour])}" '
                'specular="0.2"/>'
            )
        done_parts.add(category)
    return "<asset>" + "".join(out) + "</asset>" if out else ""


def geoms_xml(category: str, colour: str, shape: str, size: tuple[float, ...]) -> str:
    return "".join(
        f'<geom type="mesh" mesh="V:{category}:{i}" material="VM:{category}:{colour}:{i}" mass="0" '
        f'contype="0" conaffinity="0" group="{MESH_GROUP}"/>'
        for i in range(len(_parts(category, shape, size)))
    )
