"""InteractiveWorld's ROS 2 contract: the four nodes of the closed loop and the recorder, their topics and
types (all reliable, depth 200: a turn's frames go out in a burst). `nodes/` builds the nodes from it on
the suite's node runtime; `interactiveworld ros-episode` composes them in one process, and each also runs alone
(its contract's executable, configured by its ROS parameters).

  /interactiveworld/speech         human and assistant utterances; the assistant's text "" means wait and
                                   "[done]" means done
  /interactiveworld/human/eye      first-person frames (rgb8)
  /interactiveworld/human/commands JSON {turn, commands, speech, from_assistant, done}
  /interactiveworld/world/report   JSON {turn, report, visible, last_results, n_frames}
  /interactiveworld/world/state    JSON final state {goals_final, goals_at_handoff, n_actions}
  /interactiveworld/judge          JSON verdict {task_id, passed, completion, goals}
"""

from __future__ import annotations

from reacthuman.ros_contract import NodeContract

SPEECH, EYE, COMMANDS = "/interactiveworld/speech", "/interactiveworld/human/eye", "/interactiveworld/human/commands"
REPORT, STATE, JUDGE = "/interactiveworld/world/report", "/interactiveworld/world/state", "/interactiveworld/judge"
SPEECH_TYPE, IMAGE_TYPE, JSON_TYPE = "reacthuman_msgs/msg/Speech", "sensor_msgs/msg/Image", "std_msgs/msg/String"
QOS_DEPTH = 200

WORLD = NodeContract(
    "interactiveworld_world",
    "interactiveworld_world_node",
    publishes={EYE: IMAGE_TYPE, REPORT: JSON_TYPE, STATE: JSON_TYPE},
    subscribes={COMMANDS: JSON_TYPE},
    summary="owns the simulator: runs the opening, executes the human's commands, publishes frames and reports",
)
HUMAN = NodeContract(
    "interactiveworld_human",
    "interactiveworld_human_node",
    publishes={SPEECH: SPEECH_TYPE, COMMANDS: JSON_TYPE},
    subscribes={REPORT: JSON_TYPE, SPEECH: SPEECH_TYPE, EYE: IMAGE_TYPE},
    summary="speaks the world's reports; turns the assistant's speech into commands",
)
ASSISTANT = NodeContract(
    "interactiveworld_assistant",
    "interactiveworld_assistant_node",
    publishes={SPEECH: SPEECH_TYPE},
    subscribes={EYE: IMAGE_TYPE, SPEECH: SPEECH_TYPE, REPORT: JSON_TYPE},
    summary="sees first-person frames and hears the human; answers with speech, silence or done",
)
JUDGE_NODE = NodeContract(
    "interactiveworld_judge",
    "interactiveworld_judge_node",
    publishes={JUDGE: JSON_TYPE},
    subscribes={STATE: JSON_TYPE},
    summary="reads the world's final state, never the assistant's claims, and publishes the verdict",
)
RECORDER = NodeContract(
    "interactiveworld_recorder",
    "interactiveworld_recorder_node",
    subscribes={SPEECH: SPEECH_TYPE, EYE: IMAGE_TYPE, COMMANDS: JSON_TYPE, JUDGE: JSON_TYPE},
    summary="records the loop's topics as raw CDR into a rosbag2 folder",
)
