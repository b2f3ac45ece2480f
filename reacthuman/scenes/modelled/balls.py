"""Balls and round fruit: spheres whose look is their texture (felt and seam, stitches, panels, finger holes).

Most textures are painted per texel from the 3D point the texel lands on (`sphere_directions`), so patterns
made of 3D noise, great circles, seams and spots wrap round the ball seamlessly without pinching at the
poles. The fruit are turned (a lathe profile with a stem dimple) and carry a stem, a leaf or a calyx.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from reacthuman.scenes.modelled.containers import lathe
from reacthuman.scenes.modelled.geometry import Part, ellipsoid, fit_to_extents, rot, sphere, tube_between
from reacthuman.scenes.modelled.registry import modelled
from reacthuman.scenes.modelled.textures import RGB, canvas, speckle, text

EQUIRECT_PX = (512, 256)  # width (around z) x height (pole to pole)


def equirect_px(points: np.ndarray) -> np.ndarray:
    """Unit vectors -> pixel coordinates of the equirectangular texture (matches geometry.ellipsoid's uv)."""
    w, h = EQUIRECT_PX
    lon = np.arctan2(points[:, 1], points[:, 0])
    lat = np.arcsin(np.clip(points[:, 2], -1, 1))
    return np.stack([(lon + math.pi) / (2 * math.pi) * w, (1 - (lat + math.pi / 2) / math.pi) * h], 1)


def draw_curve(img: Image.Image, points: np.ndarray, fill: tuple[int, int, int], width_px: int) -> None:
    """A closed curve on the sphere drawn on its texture, split where it crosses the seam of the image."""
    d = ImageDraw.Draw(img)
    px = equirect_px(points)
    w = EQUIRECT_PX[0]
    for a, b in zip(px, np.roll(px, -1, 0)):
        if abs(a[0] - b[0]) > w / 2:
            continue  # the step that wraps around the image's left/right edge
        d.line([tuple(a), tuple(b)], fill=fill, width=width_px)


def seam_curve(samples: int = 720, lobe: float = 0.25) -> np.ndarray:
    """The two-lobed seam of tennis balls and baseballs (unit vectors)."""
    t = np.linspace(0, 2 * math.pi, samples, endpoint=False)
    a, b = 1 - lobe, lobe
    p = np.stack(
        [a * np.cos(t) + b * np.cos(3 * t), a * np.sin(t) - b * np.sin(3 * t), 2 * math.sqrt(a * b) * np.sin(2 * t)], 1
    )
    return p / np.linalg.norm(p, axis=1, keepdims=True)


def ball(ext_m: tuple[float, float, float], image: Image.Image) -> list[Part]:
    return [sphere(ext_m[0] / 2).textured(image)]


@modelled("tennis_ball", "Tennis ball", "Sports")
def tennis_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    img = speckle(canvas(*EQUIRECT_PX, (204, 222, 58)), 10, seed=11, blur_px=1.5)
    draw_curve(img, seam_curve(), (245, 245, 235), 7)
    return ball(ext_m, img)


# ---------------------------------------------------------------------------------------------- helpers
BALL_RINGS, BALL_SEGMENTS = 18, 36  # 1,296 triangles: a smooth silhouette inside the render budget


def ball_parts(ext_m: tuple[float, float, float], image: Image.Image) -> list[Part]:
    """A sphere of the object's diameter wrapped with an equirectangular image, at the triangle budget."""
    return [sphere(ext_m[0] / 2, BALL_RINGS, BALL_SEGMENTS).textured(image)]


def sphere_directions(width_px: int = EQUIRECT_PX[0], height_px: int = EQUIRECT_PX[1]) -> np.ndarray:
    """The unit vector each texel of the equirectangular image lands on, (h, w, 3) (matches equirect_px)."""
    lon = (np.arange(width_px) + 0.5) / width_px * 2 * math.pi - math.pi
    lat = math.pi / 2 - (np.arange(height_px) + 0.5) / height_px * math.pi
    la, lo = np.meshgrid(lat, lon, indexing="ij")
    return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], -1)


def unit(v: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / np.linalg.norm(a)


def unit_rows(points: np.ndarray) -> np.ndarray:
    """Each row (last axis) scaled to length 1."""
    return points / np.linalg.norm(points, axis=-1, keepdims=True)


def direction(lon_deg: float, lat_deg: float) -> np.ndarray:
    lo, la = math.radians(lon_deg), math.radians(lat_deg)
    return np.array([math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)])


def noise3(points: np.ndarray, seed: int, frequency: float, waves: int = 24) -> np.ndarray:
    """Smooth seamless noise on the sphere (about unit variance): random plane waves summed in 3D."""
    rng = np.random.default_rng(seed)
    dirs = rng.normal(size=(waves, 3))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    freqs = frequency * rng.uniform(0.6, 1.4, waves)
    phases = rng.uniform(0, 2 * math.pi, waves)
    return np.sin(points @ (dirs * freqs[:, None]).T + phases).sum(-1) * math.sqrt(2.0 / waves)


def mix(a: np.ndarray, b: RGB | np.ndarray, t: np.ndarray) -> np.ndarray:
    """a + (b - a) * t per texel (t in [0, 1], broadcast over the colour channels)."""
    t = np.clip(t, 0.0, 1.0)[..., None]
    return np.asarray(a, np.float64) * (1 - t) + np.asarray(b, np.float64) * t


def fill(rgb: RGB, shape: tuple[int, ...]) -> np.ndarray:
    return np.broadcast_to(np.asarray(rgb, np.float64), (*shape, 3)).copy()


def to_image(rgb: np.ndarray) -> Image.Image:
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))


def smoothstep(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def angle_to(points: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Great-circle angle (radians) from each point to a unit vector."""
    return np.arccos(np.clip(points @ centre, -1.0, 1.0))


def seam_coordinates(points: np.ndarray, curve: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For points on the sphere: arc length (radians) along a closed curve to the nearest curve point, and the
    signed angular distance from the curve (positive on the left of its direction of travel)."""
    from scipy.spatial import cKDTree

    flat = points.reshape(-1, 3)
    _, idx = cKDTree(curve).query(flat)
    nxt = np.roll(curve, -1, 0)
    step = np.linalg.norm(nxt - curve, axis=1)
    along = np.concatenate([[0.0], np.cumsum(step)[:-1]])
    tangent = (nxt - np.roll(curve, 1, 0))[idx]
    c = curve[idx]
    left = np.cross(c, tangent)
    left /= np.linalg.norm(left, axis=1, keepdims=True)
    signed = np.arcsin(np.clip(np.einsum("ij,ij->i", flat - c, left), -1, 1))
    return along[idx].reshape(points.shape[:-1]), signed.reshape(points.shape[:-1])


def lat_lon(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Latitude and longitude (radians) of unit vectors."""
    return np.arcsin(np.clip(points[..., 2], -1, 1)), np.arctan2(points[..., 1], points[..., 0])


def column_streaks(seed: int, amount: float, blur_px: float, width_px: int = EQUIRECT_PX[0]) -> np.ndarray:
    """A random value per image column, blurred along the row (streaks running pole to pole), wrapping round."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(0.0, 1.0, width_px)
    k = np.exp(-0.5 * (np.arange(-12, 13) / max(blur_px, 1e-3)) ** 2)
    smooth = np.convolve(np.concatenate([raw[-12:], raw, raw[:12]]), k / k.sum(), mode="same")[12:-12]
    return smooth / max(smooth.std(), 1e-9) * amount


def fruit(
    image: Image.Image, top_dimple: float, bottom_dimple: float, widen_top: float, rows: int = 20, segments: int = 32
) -> tuple[Part, float]:
    """A round fruit of unit radius turned about z: a sphere with dimples at the stem (top) and blossom end,
    wider at the shoulders by widen_top. Returns the skin and the height of the bottom of the stem's cavity."""
    t = np.linspace(0.0, math.pi, rows + 1)
    rho = np.sin(t) * (1 + widen_top * (-np.cos(t)))
    z = -np.cos(t) - top_dimple * np.exp(-(((math.pi - t) / 0.5) ** 2)) + bottom_dimple * np.exp(-((t / 0.45) ** 2))
    skin = lathe(list(zip(rho, z)), segments, v=t / math.pi).textured(image)
    return skin, float(z[-1])


# ---------------------------------------------------------------------------------------------- fruit
def _apple_skin(seed: int = 31) -> Image.Image:
    """Red skin blushed yellow-green on one side, streaked pole to pole, pale lenticel dots, a russet cavity."""
    p = sphere_directions()
    lat, _ = lat_lon(p)
    h, w = lat.shape
    rgb = mix(fill((176, 20, 30), (h, w)), (120, 8, 22), 0.5 + 0.5 * noise3(p, seed, 2.5))
    streak = column_streaks(seed + 1, 1.0, 0.8)[None, :] * np.cos(lat) ** 0.5 + 0.5 * noise3(p, seed + 4, 3.0)
    rgb = mix(rgb, (214, 110, 48), np.clip(streak - 0.9, 0, 1) * 0.35)
    rgb = mix(rgb, (96, 0, 16), np.clip(-streak - 0.8, 0, 1) * 0.35)
    blush = noise3(p, seed + 2, 1.4) - 0.9 * p[..., 2] + 0.8 * (p @ direction(150, 0))
    rgb = mix(rgb, (178, 176, 58), smoothstep(0.6, 1.6, blush))
    rng = np.random.default_rng(seed + 3)
    dots = (rng.random((h, w)) > 0.994).astype(np.float64)
    rgb = mix(rgb, (236, 206, 150), dots * 0.7)
    rgb = mix(rgb, (150, 128, 52), smoothstep(math.radians(66), math.radians(80), lat))  # the stem cavity
    rgb = mix(rgb, (80, 55, 30), smoothstep(math.radians(-76), math.radians(-84), lat))  # the blossom end
    return to_image(rgb)


@modelled("apple", "Apple", "Food")
def apple(ext_m: tuple[float, float, float]) -> list[Part]:
    """A red apple blushed green-yellow, with the stem in its dimple and a leaf: the shape and colours of an apple."""
    r = ext_m[0] / 2
    skin, cavity = fruit(_apple_skin(), top_dimple=0.34, bottom_dimple=0.14, widen_top=0.07)
    skin = skin.moved(rotation=np.eye(3) * r)
    stem_top = (0.05 * r, 0.0, (cavity + 0.34) * r)
    stem = tube_between((0.0, 0.0, (cavity - 0.05) * r), stem_top, 0.055 * r, (92, 60, 32, 255), segments=6)
    leaf = ellipsoid((0.36 * r, 0.16 * r, 0.03 * r), rings=4, segments=10).coloured((72, 138, 42, 255))
    leaf = leaf.moved((0.38 * r, 0.07 * r, (cavity + 0.24) * r), rot("z", 20) @ rot("y", -18))
    return fit_to_extents([skin, stem, leaf], ext_m)


def _orange_peel(seed: int = 41) -> Image.Image:
    """Orange peel: deep orange with fine dimple pores, a green star of calyx at the top, a navel below."""
    p = sphere_directions()
    lat, lon = lat_lon(p)
    h, w = lat.shape
    rgb = mix(fill((246, 136, 18), (h, w)), (226, 104, 8), 0.5 + 0.5 * noise3(p, seed, 2.0))
    rng = np.random.default_rng(seed + 1)
    pores = (
        np.asarray(
            Image.fromarray((rng.random((h, w)) * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.9)),
            np.float64,
        )
        / 255.0
    )
    rgb *= (0.86 + 0.28 * pores)[..., None]
    colat = math.pi / 2 - lat
    star = 0.075 + 0.035 * np.cos(5 * lon)
    rgb = mix(rgb, (104, 116, 36), smoothstep(star + 0.02, star, colat))
    rgb = mix(rgb, (70, 62, 28), smoothstep(0.04, 0.025, colat))
    rgb = mix(rgb, (206, 118, 30), smoothstep(0.1, 0.05, math.pi / 2 + lat))  # the navel end
    return to_image(rgb)


@modelled("orange", "Orange", "Food")
def orange(ext_m: tuple[float, float, float]) -> list[Part]:
    """An orange: a bright orange ball of dimpled peel with a small green calyx (button) on top."""
    r = ext_m[0] / 2
    skin, cavity = fruit(_orange_peel(), top_dimple=0.05, bottom_dimple=0.03, widen_top=0.0)
    skin = skin.moved(rotation=np.eye(3) * r)
    button = tube_between(
        (0.0, 0.0, (cavity - 0.03) * r), (0.0, 0.0, (cavity + 0.04) * r), 0.07 * r, (96, 108, 34, 255), segments=8
    )
    return fit_to_extents([skin, button], ext_m)


# ---------------------------------------------------------------------------------------------- sports balls
def _star(d: ImageDraw.ImageDraw, centre: tuple[float, float], radius_px: float, fill_rgb: RGB) -> None:
    cx, cy = centre
    pts = [
        (
            cx + (radius_px if k % 2 == 0 else radius_px * 0.42) * math.sin(k * math.pi / 5),
            cy - (radius_px if k % 2 == 0 else radius_px * 0.42) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    d.polygon(pts, fill=fill_rgb)


@modelled("rubber_ball", "Rubber ball (playground ball)", "Toys")
def rubber_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A playground ball: bright pebbled red rubber with a yellow band of blue stars round its middle."""
    w, h = EQUIRECT_PX
    img = canvas(w, h, (214, 30, 36))
    d = ImageDraw.Draw(img)
    band = h * 0.1
    d.rectangle([0, h / 2 - band - 5, w, h / 2 + band + 5], fill=(250, 250, 245))
    d.rectangle([0, h / 2 - band, w, h / 2 + band], fill=(252, 206, 26))
    for k in range(8):
        _star(d, ((k + 0.5) * w / 8, h / 2), band * 0.85, (28, 70, 196))
    for k in range(4):  # a star on each side of the poles too
        _star(d, ((k + 0.25) * w / 4, h * 0.22), band * 0.7, (252, 206, 26))
        _star(d, ((k + 0.75) * w / 4, h * 0.78), band * 0.7, (252, 206, 26))
    return ball_parts(ext_m, speckle(img, 7, seed=51, blur_px=0.7))


@modelled("cricket_ball", "Cricket ball", "Sports")
def cricket_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A cricket ball: dark red polished leather, a raised cream stitched seam round the equator, a gold stamp."""
    p = sphere_directions()
    lat, lon = lat_lon(p)
    h, w = lat.shape
    rgb = mix(fill((150, 18, 24), (h, w)), (92, 8, 14), 0.5 + 0.45 * noise3(p, 61, 3.0))
    rgb = mix(rgb, (170, 60, 50), np.clip(noise3(p, 62, 9.0) - 1.2, 0, 1) * 0.5)  # scuffs
    seam_half = math.radians(5.5)
    alat = np.abs(lat)
    ridge = smoothstep(seam_half, seam_half * 0.75, alat)
    rgb = mix(rgb, (226, 214, 186), ridge)
    # Stitches: rows of short slanted dashes either side of a fine groove, shaded as a raised ridge.
    row = (alat > seam_half * 0.18) & (alat < seam_half * 0.82)
    dash = ((lon / (2 * math.pi) * 150 + np.sign(lat) * alat / seam_half * 0.8) % 1.0) < 0.45
    rgb = mix(rgb, (160, 140, 112), (row & ~dash).astype(np.float64) * ridge * 0.8)
    rgb = mix(rgb, (110, 30, 30), smoothstep(seam_half * 0.14, 0.0, alat))
    edge = smoothstep(seam_half * 0.8, seam_half, alat) * smoothstep(seam_half * 1.3, seam_half, alat)
    rgb = mix(rgb, (120, 10, 18), edge * 0.6)  # the shadowed foot of the raised seam
    quarter = np.minimum(np.abs(np.abs(lon) - math.pi / 2), 1.0)  # the quarter seam, faint, on two sides
    rgb = mix(rgb, (200, 150, 120), smoothstep(0.012, 0.0, quarter) * smoothstep(seam_half, seam_half * 2, alat) * 0.45)
    img = to_image(rgb)
    d = ImageDraw.Draw(img)
    cx, cy = (-42 + 180) / 360 * w, h * 0.3  # the maker's gold stamp
    d.ellipse([cx - 26, cy - 12, cx + 26, cy + 12], outline=(214, 172, 70), width=2)
    text(d, (cx, cy), "156 g", 11, (214, 172, 70))
    return ball_parts(ext_m, img)


@modelled("baseball", "Baseball", "Sports")
def baseball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A baseball: off-white leather with its two-lobed seam sewn with red V-shaped stitches."""
    p = sphere_directions()
    h, w = p.shape[:2]
    rgb = mix(fill((244, 240, 228), (h, w)), (222, 214, 196), 0.5 + 0.4 * noise3(p, 71, 4.0))
    curve = seam_curve(2880, lobe=0.22) @ (rot("z", 20) @ rot("x", 35)).T  # a lobe across the three-quarter view
    along, signed = seam_coordinates(p, curve)
    dist = np.abs(signed)
    rgb = mix(rgb, (176, 168, 152), smoothstep(0.012, 0.004, dist))  # the seam's groove
    spacing_rad = 0.09
    slant = ((along - 0.6 * dist) % spacing_rad) / spacing_rad
    stitch = (dist > 0.016) & (dist < 0.11) & (np.abs(slant - 0.5) < 0.28)
    rgb = mix(rgb, (206, 28, 36), stitch.astype(np.float64))
    return ball_parts(ext_m, to_image(rgb))


@modelled("beach_ball", "Beach ball", "Toys")
def beach_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A beach ball: six bright vinyl gores (red, yellow, blue, white, green, orange) meeting at white caps."""
    p = sphere_directions()
    lat, lon = lat_lon(p)
    colours = np.array(
        [(226, 36, 40), (252, 212, 32), (30, 92, 212), (246, 246, 240), (36, 170, 72), (250, 132, 24)], np.float64
    )
    gore = ((lon + math.pi) / (math.pi / 3)).astype(int) % 6
    rgb = colours[gore]
    edge = np.abs(((lon + math.pi) / (math.pi / 3)) % 1.0 - 0.5)  # 0.5 at a seam between gores
    rgb = mix(rgb, (255, 255, 255), smoothstep(0.485, 0.5, edge) * 0.8)
    cap = smoothstep(math.radians(70), math.radians(72), np.abs(lat))
    rgb = mix(rgb, (248, 248, 244), cap)
    rgb = mix(rgb, (200, 200, 196), smoothstep(math.radians(72.5), math.radians(71.5), np.abs(lat)) * cap)
    valve = smoothstep(0.05, 0.04, angle_to(p, direction(-150, 60)))
    rgb = mix(rgb, (240, 240, 236), valve)
    return ball_parts(ext_m, to_image(rgb))


@modelled("superball", "Bouncy superball", "Toys")
def superball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A bouncy superball: small, glossy, swirled through with bands of saturated colours."""
    p = sphere_directions()
    warp = np.stack([noise3(p, 81 + k, 2.2) for k in range(3)], -1)
    value = noise3(unit_rows(p + 0.55 * warp), 84, 2.6)
    palette = np.array(
        [(236, 30, 60), (252, 200, 20), (30, 200, 90), (30, 120, 240), (170, 50, 220), (250, 110, 20)], np.float64
    )
    band = value * 2.2
    idx = np.floor(band).astype(int) % len(palette)
    frac = band - np.floor(band)
    rgb = mix(palette[idx], palette[(idx + 1) % len(palette)], smoothstep(0.85, 1.0, frac))
    rgb = mix(rgb, (255, 255, 255), smoothstep(0.3, 0.1, angle_to(p, direction(-42, 40))) * 0.6)  # gloss
    return ball_parts(ext_m, to_image(rgb))


@modelled("steel_ball", "Steel ball bearing", "Tools")
def steel_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A polished steel ball: a chrome reflection painted in (bright sky above a sharp dark horizon, the floor
    below) and a bright highlight band, so it reads as mirror-polished metal, not a grey ball."""
    p = sphere_directions()
    h, w = p.shape[:2]
    z = p[..., 2] + 0.04 * noise3(p, 91, 2.0)
    sky = mix(fill((238, 240, 244), (h, w)), (120, 128, 142), smoothstep(0.05, 0.95, z))
    ground = mix(fill((46, 44, 42), (h, w)), (126, 116, 104), smoothstep(-0.05, -0.9, z))
    rgb = mix(ground, sky, smoothstep(-0.03, 0.03, z))
    rgb = mix(rgb, (255, 255, 255), smoothstep(0.1, 0.03, np.abs(z - 0.22)) * 0.8)  # the highlight band
    window = np.maximum(angle_to(p, direction(-60, 42)), 0.0)
    rgb = mix(rgb, (255, 255, 255), smoothstep(0.22, 0.12, window))
    return ball_parts(ext_m, to_image(rgb))


@modelled("bowling_ball", "Bowling ball", "Sports")
def bowling_ball(ext_m: tuple[float, float, float]) -> list[Part]:
    """A bowling ball: glossy dark blue marbled with lighter swirls, and its three finger holes clustered."""
    p = sphere_directions()
    h, w = p.shape[:2]
    warp = np.stack([noise3(p, 101 + k, 1.8) for k in range(3)], -1)
    q = unit_rows(p + 0.6 * warp)
    vein = np.abs(np.sin(q @ np.array([3.0, 5.0, 2.0]) + 1.5 * noise3(q, 104, 2.5)))
    rgb = mix(fill((22, 30, 96), (h, w)), (8, 10, 34), 0.5 + 0.5 * noise3(q, 105, 2.0))
    rgb = mix(rgb, (86, 120, 220), smoothstep(0.35, 0.05, vein) * 0.85)
    rgb = mix(rgb, (170, 190, 240), smoothstep(0.08, 0.0, vein) * 0.6)
    grip = direction(-42, 38)
    ref = unit(np.cross(grip, [0.0, 0.0, 1.0]))
    up = np.cross(ref, grip)
    holes = [(grip + 0.13 * ref + 0.2 * up, 0.085), (grip - 0.13 * ref + 0.2 * up, 0.085), (grip - 0.42 * up, 0.1)]
    for centre, radius in holes:
        c = unit(centre)
        a = angle_to(p, c)
        rgb = mix(rgb, (190, 200, 225), smoothstep(radius + 0.02, radius + 0.005, a))  # the lit rim
        inner = angle_to(p, unit(c + 0.35 * radius * up))
        wall = mix(fill((70, 72, 84), (h, w)), (6, 6, 9), smoothstep(radius * 0.5, radius * 0.9, inner))
        rgb = np.where((a < radius)[..., None], wall, rgb)
    return ball_parts(ext_m, to_image(rgb))
