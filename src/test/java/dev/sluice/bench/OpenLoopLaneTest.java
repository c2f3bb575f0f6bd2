package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.OpenLoop.Lane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenLoopLaneTest {
  @Test
  void split_eightInFlightOverThreeChannels_sharesDifferByAtMostOneAndAddUp() {
    List<Lane> lanes = Lane.split(3, 8);

    assertThat(lanes).extracting(Lane::budget).containsExactly(3, 3, 2);
    assertThat(lanes).extracting(Lane::stride).containsOnly(3);
  }

  @Test
  void split_moreChannelsThanConcurrency_oneLanePerSlotEachWithBudgetOne() {
    List<Lane> lanes = Lane.split(8, 3);

    assertThat(lanes).hasSize(3);
    assertThat(lanes).extracting(Lane::budget).containsOnly(1);
  }

  @Test
  void split_lanesTakeEveryRequestIndexExactlyOnce() {
    List<Lane> lanes = Lane.split(4, 64);
    List<Long> taken = new ArrayList<>();
    for (Lane lane : lanes) {
      for (long i = lane.first(); i < 1000; i += lane.stride()) {
        taken.add(i);
      }
    }

    assertThat(taken).hasSize(1000).doesNotHaveDuplicates().allMatch(i -> i >= 0 && i < 1000);
    assertThat(lanes.stream().mapToInt(Lane::budget).sum()).isEqualTo(64);
  }
}
