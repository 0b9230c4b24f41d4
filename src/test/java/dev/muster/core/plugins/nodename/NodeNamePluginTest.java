package dev.muster.core.plugins.nodename;

import dev.muster.core.framework.Code;
import dev.muster.core.framework.Status;
import dev.muster.core.testing.Nodes;
import dev.muster.core.testing.Pods;
import dev.muster.core.testing.TestCluster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NodeNamePluginTest {

    @Test
    void aPendingPodWithoutNodeNameFitsEveryNode() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build(), Nodes.node("n2").build()),
                List.of(Pods.pod("p").build()));
        assertThat(c.feasible(new NodeNamePlugin(), "p")).containsExactly("n1", "n2");
    }

    @Test
    void aPodNamingANodeFitsOnlyThatNode() {
        TestCluster c = TestCluster.of(List.of(Nodes.node("n1").build(), Nodes.node("n2").build()),
                List.of(Pods.pod("p").on("n2").build()));
        Map<String, Status> r = c.filter(new NodeNamePlugin(), "p");
        assertThat(r.get("n2").isSuccess()).isTrue();
        assertThat(r.get("n1").code()).isEqualTo(Code.UnschedulableAndUnresolvable);
        assertThat(r.get("n1").reasons()).containsExactly("node(s) didn't match the requested node name");
    }
}
